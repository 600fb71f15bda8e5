#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The command line: `[--filter NAME | NAME]… [--runs N] [--json] [--list] [--help]`.
struct Options {
    /// Names, or substrings of names, of the benchmarks to run (all when empty).
    var filters: [String] = []
    /// Timed runs per benchmark, after one warm-up run.
    var runs = 10
    /// Print JSON instead of a table.
    var json = false
    /// Print the benchmark names and exit.
    var list = false
    /// Print the bytes per live subscription and exit.
    var memory = false
    /// Kill a metadata writer this many times, check the file after each, and exit.
    var killLoop: Int?
    /// Kill an outbox journal writer this many times, check the journal after each, and exit.
    var outboxKillLoop: Int?
    /// Kill a process sending outbox writes to a server fake this many times, check that no
    /// write is lost or doubled under another key, and exit.
    var outboxSendKillLoop: Int?

    static let usage = """
        usage: TellerBenchmarks [--filter NAME | NAME]... [--runs N] [--json] [--list] [--memory] [--kill-loop N]
                               [--outbox-kill-loop N] [--outbox-send-kill-loop N]
          NAME        run the benchmark named NAME, or else those whose name contains NAME
                      (repeatable); the floors they are compared against run too
          --runs N    timed runs per benchmark after one warm-up (default 10, at least 1)
          --json      machine-readable output on standard output
          --list      print the benchmark names
          --memory    print the bytes held per live subscription (Linux) and exit
          --kill-loop N
                      SIGKILL a process writing fetch metadata N times at random moments,
                      check after each kill that the file is whole, and exit
          --outbox-kill-loop N
                      SIGKILL a process enqueueing outbox writes N times at random moments,
                      check after each kill that every acknowledged write is kept, and exit
          --outbox-send-kill-loop N
                      SIGKILL a process enqueueing into an outbox and sending to a server fake
                      N times at random moments, then drain the outbox; check that every
                      acknowledged write reached the server, duplicates only under their own
                      idempotency key, and exit
        """

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--filter":
                guard let name = remaining.popFirst() else { fail("--filter needs a name") }
                options.filters.append(name)
            case "--runs":
                guard let value = remaining.popFirst(), let runs = Int(value), runs >= 1 else {
                    fail("--runs needs a positive number")
                }
                options.runs = runs
            case "--json":
                options.json = true
            case "--list":
                options.list = true
            case "--memory":
                options.memory = true
            case "--kill-loop":
                guard let value = remaining.popFirst(), let rounds = Int(value), rounds >= 1 else {
                    fail("--kill-loop needs a positive number")
                }
                options.killLoop = rounds
            case "--outbox-kill-loop":
                guard let value = remaining.popFirst(), let rounds = Int(value), rounds >= 1 else {
                    fail("--outbox-kill-loop needs a positive number")
                }
                options.outboxKillLoop = rounds
            case "--outbox-send-kill-loop":
                guard let value = remaining.popFirst(), let rounds = Int(value), rounds >= 1 else {
                    fail("--outbox-send-kill-loop needs a positive number")
                }
                options.outboxSendKillLoop = rounds
            case "--help", "-h":
                print(usage)
                exit(0)
            default:
                if argument.hasPrefix("-") { fail("unknown option \(argument)") }
                options.filters.append(argument)
            }
        }
        return options
    }

    private static func fail(_ message: String) -> Never {
        printError(message + "\n" + usage)
        exit(1)
    }
}

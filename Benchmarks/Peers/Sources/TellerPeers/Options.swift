#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The command line: `[--filter NAME | NAME]… [--runs N] [--json] [--list] [--help]`.
struct Options {
    /// Names, or parts of names, of the workloads to run (all when empty).
    var filters: [String] = []
    /// Timed rounds per workload, after one warm-up run per side.
    var runs = 10
    /// Print JSON instead of a table.
    var json = false
    /// Print the workload names and exit.
    var list = false

    static let usage = """
        usage: TellerPeers [--filter NAME | NAME]... [--runs N] [--json] [--list]
          NAME        run the workload named NAME, or else those whose name contains NAME
                      (repeatable, case-insensitive)
          --runs N    timed rounds (one TellerRx run, one OpenCombine run) after one warm-up
                      (default 10, at least 1)
          --json      machine-readable output on standard output
          --list      print the workload names
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

    /// The workloads selected by `filters`: a filter equal to some workload's name selects
    /// that one only (so `publish-subject-pumping` leaves out `…-2-subscribers`), any other
    /// selects the names containing it. All workloads when there is no filter.
    func select(_ workloads: [Workload]) -> [Workload] {
        guard !filters.isEmpty else { return workloads }
        let names = Set(workloads.map { $0.name.lowercased() })
        return workloads.filter { workload in
            let name = workload.name.lowercased()
            return filters.contains { filter in
                let filter = filter.lowercased()
                return names.contains(filter) ? name == filter : name.contains(filter)
            }
        }
    }

    private static func fail(_ message: String) -> Never {
        printError(message + "\n" + usage)
        exit(1)
    }
}

import Foundation
import Teller

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Nothing lost, nothing doubled (issue #20): `--outbox-send-kill-loop N` SIGKILLs, N times at
/// a random moment, a process whose real `TellerOutbox` enqueues writes and sends them to a
/// server fake (``OutboxSendKillLoopSender``), then runs one more sender to the end, which sends
/// what is left.
///
/// After every kill: the journal reads with no damage (a torn tail is counted), every write
/// whose enqueue was acknowledged is received by the server or still pending, and the server
/// received no write that was never announced, nor one under another idempotency key than its
/// own. At the end: every acknowledged write was received, at least once, and nothing is
/// pending.
enum OutboxSendKillLoop {
    /// Runs `rounds` kills and the final drain, and prints the figures; exits with 1 at the
    /// first failed check.
    static func run(rounds: Int) -> Never {
        let directory = KillLoopSupport.makeFolder(prefix: "teller-outbox-send-kill-loop")
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("outbox.journal")
        let server = directory.appendingPathComponent("server.log")
        let started = ContinuousClock.now
        var tally = OutboxSendTally()
        var generator = SystemRandomNumberGenerator()
        for round in 1...rounds {
            let output = KillLoopSupport.killWriter(
                flag: OutboxSendKillLoopSender.flag,
                file: journal,
                extra: [server.path, "enqueue"],
                round: round,
                maxLines: 12,
                generator: &generator
            )
            tally.take(output: output)
            if let failure = tally.check(journal: journal, server: server, isFinal: false) {
                stop("round \(round): \(failure)")
            }
            if round % 100 == 0 { printError("\(round) kills…") }
        }
        drain(journal: journal, server: server)
        if let failure = tally.check(journal: journal, server: server, isFinal: true) {
            stop("after the final sender: \(failure)")
        }
        let elapsed = ContinuousClock.now - started
        print(tally.summary(rounds: rounds, elapsed: elapsed.formatted(.units(allowed: [.seconds]))))
        exit(0)
    }

    /// Runs a sender that enqueues nothing until it exits, once it sent every pending write.
    private static func drain(journal: URL, server: URL) {
        let (process, output) = KillLoopSupport.startWriter(
            flag: OutboxSendKillLoopSender.flag,
            file: journal,
            extra: [server.path, "drain"],
            round: 0
        )
        _ = output.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            stop("the final sender exited with \(process.terminationStatus)")
        }
    }

    private static func stop(_ message: String) -> Never {
        printError(message)
        exit(1)
    }
}

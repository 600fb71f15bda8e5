import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The outbox journal's crash safety at scale: `--outbox-kill-loop N` starts this executable as
/// a writer N times, SIGKILLs it at a random moment while it enqueues, marks records taken by
/// the server and fetched back, and reopens the journal each time. Every reopening must read the
/// file without damage (a torn tail, the append the kill interrupted, is expected), find every
/// record whose enqueue the writer acknowledged (unless it had announced sending it), and none
/// whose sending it acknowledged pending; every acknowledged taken record kept as taken (unless
/// it had announced fetching it back), and none whose fetching back it acknowledged.
enum OutboxKillLoop {
    /// The hidden mode the loop starts: enqueue records into the journal at `file` until
    /// killed, sending the oldest once more than 20 are pending (so the journal compacts every
    /// few dozen appends) and fetching the 5 oldest taken back once more than 10 are taken,
    /// printing "enqueued ID", "sent ID" or "fetchedBack ID" after each append returns (and
    /// "sending ID" or "fetchingBack ID" before marking a record taken or fetched back).
    static let writerFlag = "--outbox-writer"

    static func runWriter(file: String) -> Never {
        let journal = OutboxJournal(url: URL(fileURLWithPath: file), compactionThreshold: 16 * 1024)
        let payload = Data(String(repeating: "x", count: 200).utf8)
        do {
            let contents = try journal.contents()
            var pending = contents.pending.map(\.id)
            var taken = contents.taken.map(\.id)
            while true {
                let record = OutboxRecord(
                    kind: "killLoop",
                    tag: "tag-\(Int.random(in: 0..<8))",
                    payload: payload,
                    createdAt: Date()
                )
                try journal.append(.enqueued(record: record))
                acknowledge("enqueued \(record.id)")
                pending.append(record.id)
                while pending.count > 20 {
                    let id = pending.removeFirst()
                    // Announced first, as a handler is called before the record is marked sent:
                    // a kill between the two may remove a record without a "sent" line.
                    acknowledge("sending \(id)")
                    try journal.append(.taken(id: id))
                    acknowledge("sent \(id)")
                    taken.append(id)
                }
                if taken.count > 10 {
                    let back = Array(taken.prefix(5))
                    taken.removeFirst(5)
                    for id in back { acknowledge("fetchingBack \(id)") }
                    try journal.append(.fetchedBack(ids: back))
                    for id in back { acknowledge("fetchedBack \(id)") }
                }
            }
        } catch {
            printError("outbox writer failed: \(error)")
            exit(1)
        }
    }

    private static func acknowledge(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// What the writers acknowledged and what the reopened journals held, over all rounds.
    private struct Tally {
        /// Acknowledged enqueues not acknowledged sent: each must be in the journal.
        var pending = Set<UUID>()
        /// Acknowledged sends: none may be in the journal.
        var sent = Set<UUID>()
        /// Announced in this round and not acknowledged: these may be gone.
        var sending = Set<UUID>()
        /// Records gone after their sending was announced, before it was acknowledged.
        var sentUnacknowledged = 0
        /// Acknowledged sends not acknowledged fetched back: each must be kept as taken.
        var taken = Set<UUID>()
        /// Fetching back announced in this round and not acknowledged: these may be gone.
        var fetching = Set<UUID>()
        /// Acknowledged fetched back: none may be kept as taken.
        var fetchedBack = Set<UUID>()
        var fetchBacks = 0
        var enqueues = 0
        var sends = 0
        var tornTails = 0
        /// Records found durable whose enqueue the kill cut before its acknowledgement.
        var unacknowledged = Set<UUID>()
        var staleTemporaryFiles = 0

        mutating func take(_ line: Substring) {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let id = UUID(uuidString: String(parts[1])) else { return }
            if parts[0] == "enqueued" {
                pending.insert(id)
                enqueues += 1
            } else if parts[0] == "sending" {
                sending.insert(id)
            } else if parts[0] == "sent" {
                pending.remove(id)
                sending.remove(id)
                sent.insert(id)
                taken.insert(id)
                sends += 1
            } else if parts[0] == "fetchingBack" {
                fetching.insert(id)
            } else if parts[0] == "fetchedBack" {
                taken.remove(id)
                fetching.remove(id)
                fetchedBack.insert(id)
                fetchBacks += 1
            }
        }
    }

    /// Runs `rounds` kills and prints a summary; exits with 1 at the first failed check.
    static func run(rounds: Int) -> Never {
        let directory = KillLoopSupport.makeFolder(prefix: "teller-outbox-kill-loop")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("outbox.journal")
        let started = ContinuousClock.now
        var tally = Tally()
        var generator = SystemRandomNumberGenerator()
        for round in 1...rounds {
            let output = KillLoopSupport.killWriter(
                flag: writerFlag,
                file: file,
                round: round,
                maxLines: 6,
                generator: &generator
            )
            for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
                tally.take(line)
            }
            if let failure = check(file: file, tally: &tally) {
                printError("round \(round): \(failure)")
                exit(1)
            }
            if round % 100 == 0 { printError("\(round) kills…") }
        }
        let elapsed = ContinuousClock.now - started
        print(
            """
            \(rounds) SIGKILLs of an outbox writer in \(elapsed.formatted(.units(allowed: [.seconds]))):
            \(tally.enqueues) enqueues, \(tally.sends) sends (taken) and \(tally.fetchBacks) fetch-backs acknowledged; \
            every reopening read the journal without damage and held every acknowledged enqueue not acknowledged \
            sent, and no acknowledged send, as pending; every acknowledged send not acknowledged fetched back, and \
            no acknowledged fetch-back, as taken (\(tally.pending.count) pending, \(tally.taken.count) taken at the end).
            \(tally.tornTails) reopenings found a torn tail (an append the kill interrupted), ignored as designed; \
            \(tally.unacknowledged.count) records were durable though the kill came before their acknowledgement, \
            \(tally.sentUnacknowledged) were sent though it came before the acknowledgement of that; \
            \(tally.staleTemporaryFiles) reopenings found a temporary file of an interrupted compaction.
            """
        )
        exit(0)
    }

    /// Reopens the journal and checks it against what the writers acknowledged.
    private static func check(file: URL, tally: inout Tally) -> String? {
        let problems = LockedState([OutboxJournalProblem]())
        let journal = OutboxJournal(url: file) { problem in problems.withLock { $0.append(problem) } }
        let ids: Set<UUID>
        let takenIDs: Set<UUID>
        do {
            let contents = try journal.contents()
            ids = Set(contents.pending.map(\.id))
            takenIDs = Set(contents.taken.map(\.id))
        } catch {
            return "the journal could not be read: \(error)"
        }
        for problem in problems.value {
            guard case .tornTail = problem else { return "damage other than a torn tail: \(problem)" }
            tally.tornTails += 1
        }
        let gone = tally.pending.subtracting(ids)
        let missing = gone.subtracting(tally.sending)
        if !missing.isEmpty {
            return "\(missing.count) acknowledged enqueues missing, e.g. \(Array(missing.prefix(3)))"
        }
        tally.pending.subtract(gone)
        tally.sentUnacknowledged += gone.count
        tally.sending = []
        let resurrected = tally.sent.intersection(ids)
        if !resurrected.isEmpty { return "\(resurrected.count) acknowledged sends still pending" }
        let lostTaken = tally.taken.subtracting(takenIDs)
        let missingTaken = lostTaken.subtracting(tally.fetching)
        if !missingTaken.isEmpty {
            return "\(missingTaken.count) acknowledged taken records missing, e.g. \(Array(missingTaken.prefix(3)))"
        }
        tally.taken.subtract(lostTaken)
        tally.fetching = []
        let revived = tally.fetchedBack.intersection(takenIDs)
        if !revived.isEmpty { return "\(revived.count) acknowledged fetched-back records still taken" }
        tally.unacknowledged.formUnion(ids.subtracting(tally.pending))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)) ?? []
        if names.contains(where: { $0.hasSuffix(".tmp") }) { tally.staleTemporaryFiles += 1 }
        return nil
    }
}

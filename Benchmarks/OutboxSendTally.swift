import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

/// What ``OutboxSendKillLoop``'s senders announced and acknowledged, what the server fake
/// received, and what the journal held, over all rounds.
struct OutboxSendTally {
    /// Every write a sender was about to enqueue: its name and idempotency key.
    private var announced: [String: String] = [:]
    /// The writes whose enqueue returned.
    private var acknowledged = Set<String>()
    /// How many times the server received each write.
    private var received: [String: Int] = [:]
    private var receptions = 0
    /// How far the server file was read (the end of its last whole line).
    private var serverOffset: UInt64 = 0
    private var tornTails = 0
    private var damaged = 0
    /// Writes pending after the last kill, which the final sender sends.
    private var pendingAfterKills = 0

    /// Takes the lines a sender printed.
    mutating func take(output: Data) {
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            if parts.count == 3, parts[0] == "enqueuing" {
                announced[parts[1]] = parts[2]
            } else if parts.count == 2, parts[0] == "enqueued" {
                acknowledged.insert(parts[1])
            }
        }
    }

    /// Reads what the server received since the last check and the journal, and checks them;
    /// returns what failed. `isFinal`: after the last sender, nothing may be pending.
    mutating func check(journal: URL, server: URL, isFinal: Bool) -> String? {
        if let failure = readServer(server) { return failure }
        let pending: [String]
        switch readJournal(journal) {
        case .success(let names): pending = names
        case .failure(let failure): return failure.message
        }
        if isFinal, !pending.isEmpty { return "\(pending.count) writes still pending" }
        if !isFinal { pendingAfterKills = pending.count }
        let lost = acknowledged.subtracting(received.keys).subtracting(pending)
        if !lost.isEmpty { return "\(lost.count) acknowledged writes lost, e.g. \(Array(lost.prefix(3)))" }
        return nil
    }

    private mutating func readServer(_ server: URL) -> String? {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: server)
            defer { try? handle.close() }
            try handle.seek(toOffset: serverOffset)
            data = try handle.readToEnd() ?? Data()
        } catch {
            // The first sender creates it; a sender killed before that leaves none.
            if !FileManager.default.fileExists(atPath: server.path) { return nil }
            return "the server file could not be read: \(error)"
        }
        guard let lastNewline = data.lastIndex(of: UInt8(ascii: "\n")) else { return nil }
        let whole = data[data.startIndex...lastNewline]
        serverOffset += UInt64(whole.count)
        for line in String(decoding: whole, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count == 2 else { return "the server received a line it cannot read: \(line)" }
            let (key, name) = (parts[0], parts[1])
            guard let announcedKey = announced[name] else { return "the server received \(name), never enqueued" }
            guard announcedKey == key else { return "the server received \(name) with key \(key), not \(announcedKey)" }
            received[name, default: 0] += 1
            receptions += 1
        }
        return nil
    }

    /// The names of the writes the journal holds pending, counting its torn tails.
    private mutating func readJournal(_ journal: URL) -> Result<[String], KillLoopFailure> {
        let problems = LockedState([OutboxJournalProblem]())
        let reader = OutboxJournal(url: journal) { problem in problems.withLock { $0.append(problem) } }
        let records: [OutboxRecord]
        do {
            records = try reader.records()
        } catch {
            return .failure(KillLoopFailure(message: "the journal could not be read: \(error)"))
        }
        for problem in problems.value {
            if case .tornTail = problem { tornTails += 1 } else { damaged += 1 }
        }
        if damaged > 0 { return .failure(KillLoopFailure(message: "damage in the journal: \(problems.value)")) }
        var names: [String] = []
        for record in records {
            guard let write = try? JSONDecoder().decode(OutboxSendKillLoopSender.Write.self, from: record.payload),
                announced[write.name] == record.idempotencyKey
            else {
                return .failure(KillLoopFailure(message: "the journal holds a write never announced: \(record.id)"))
            }
            names.append(write.name)
        }
        return .success(names)
    }

    /// The figures, once every check passed.
    func summary(rounds: Int, elapsed: String) -> String {
        let doubled = received.values.filter { $0 > 1 }
        let unacknowledged = Set(received.keys).subtracting(acknowledged).count
        return """
            \(rounds) SIGKILLs of a process enqueueing into a TellerOutbox and sending to a server fake, then one \
            sender run to the end, in \(elapsed):
            \(announced.count) enqueues started, \(acknowledged.count) acknowledged; the server received \
            \(received.count) distinct writes in \(receptions) receptions.
            lost: 0 (every acknowledged write received at least once; the final sender sent the \(pendingAfterKills) \
            left pending by the last kill, and none is pending).
            duplicates: \(doubled.count) writes received more than once (\(doubled.reduce(0, +) - doubled.count) \
            extra receptions), each every time with its own idempotency key; none received that was never enqueued.
            \(unacknowledged) writes received though the kill came before their enqueue's acknowledgement.
            journal: readable after every kill; \(tornTails) torn tails (an append the kill cut), \(damaged) \
            damaged entries.
            """
    }
}

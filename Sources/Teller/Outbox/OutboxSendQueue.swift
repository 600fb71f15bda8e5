import Foundation
@_spi(TellerInternals) import TellerRx

/// The pending writes as ``TellerOutbox`` schedules them, and its decisions about which to send
/// next: one write at a time per scope, in enqueue order, and scopes in the order they became
/// ready. No threads and no I/O: the outbox keeps it under its lock.
///
/// Every operation costs the same however many writes are pending, except ``pending``,
/// ``replace(with:)``, ``resume()`` and ``listEveryScope()``, which visit them all (the
/// outbox calls those on a relaunch, a trigger or a new handler, not per write).
struct OutboxSendQueue {
    /// What a scope is doing.
    enum Status: Equatable {
        /// Nothing: its oldest write is sent when a slot is free.
        case idle
        /// Its oldest write, `id`, is being sent.
        case sending(UUID)
        /// A send failed; the retry policy's delay runs before the next attempt.
        case waiting
        /// The retry policy gave up; nothing is sent until ``resume()``.
        case stalled
    }

    private struct Scope {
        /// Its writes' ids in enqueue order. Ids no longer pending are skipped when they come
        /// to the front, so removing a write from the middle costs nothing here.
        var ids = FIFOQueue<UUID>()
        var status = Status.idle
        /// Failed attempts since the last success or ``resume()``: what the retry policy counts.
        var failures = 0
        /// Whether it is in `ready` already.
        var isListed = false
    }

    private struct Entry {
        /// Orders ``pending``.
        var sequence: Int
        var record: OutboxRecord
    }

    private var entries: [UUID: Entry] = [:]
    /// The writes to send as overwrites (their conflicts were settled for the app's version),
    /// apart from the records, which a read of the journal replaces.
    private var overwrites: Set<UUID> = []
    /// The writes that conflict with the server's data and wait for the app to resolve them
    /// (``OutboxConflictPolicy/manual``): a scope whose oldest write is one sends nothing until
    /// ``release(_:)``, whatever ``resume()`` does.
    private(set) var held: Set<UUID> = []
    private var scopes: [String: Scope] = [:]
    /// Scopes that may have a write to start, oldest listed first; checked when dequeued.
    private var ready = FIFOQueue<String>()
    private var nextSequence = 0
    /// How many writes are being sent.
    private(set) var sendingCount = 0

    /// The pending writes, oldest enqueued first.
    var pending: [OutboxRecord] {
        entries.values.sorted { $0.sequence < $1.sequence }.map(\.record)
    }

    var isEmpty: Bool {
        entries.isEmpty
    }

    /// The pending write `id`, if it is.
    func record(_ id: UUID) -> OutboxRecord? {
        entries[id]?.record
    }

    func status(ofScope scope: String) -> Status {
        scopes[scope]?.status ?? .idle
    }

    /// Adds `record` after the writes of its scope.
    mutating func add(_ record: OutboxRecord) {
        entries[record.id] = Entry(sequence: nextSequence, record: record)
        nextSequence += 1
        scopes[record.scope, default: Scope()].ids.enqueue(record.id)
        list(record.scope)
    }

    /// Removes the pending write `id` (sent, rejected or discarded) and returns it. A scope
    /// waiting to retry that write, or stalled on it, goes on with its next one.
    mutating func remove(_ id: UUID) -> OutboxRecord? {
        guard let record = entries.removeValue(forKey: id)?.record else { return nil }
        overwrites.remove(id)
        if held.remove(id) != nil { list(record.scope) }
        if let scope = scopes[record.scope], scope.ids.first == id,
            scope.status == .waiting || scope.status == .stalled
        {
            scopes[record.scope]?.status = .idle
            scopes[record.scope]?.failures = 0
            list(record.scope)
        }
        return record
    }

    /// Write `id` is to replace what the server has when next sent (its conflict was resolved
    /// for the app's version).
    mutating func markOverwrite(_ id: UUID) {
        guard entries[id] != nil else { return }
        overwrites.insert(id)
    }

    /// Holds the writes `ids` (the conflicts the journal keeps, read again) and lets go of the
    /// others, and marks the writes `marked` as overwrites too: what another launch or process
    /// decided. Ids not pending are ignored.
    mutating func adopt(held ids: Set<UUID>, overwrites marked: Set<UUID>) {
        let released = held.subtracting(ids)
        held = ids.filter { entries[$0] != nil }
        overwrites.formUnion(marked.filter { entries[$0] != nil })
        for id in released {
            if let scope = entries[id]?.record.scope { list(scope) }
        }
    }

    /// Notes that write `id` has now been attempted `attempts` times.
    mutating func setAttempts(_ attempts: Int, of id: UUID) {
        entries[id]?.record.attempts = attempts
    }

    /// Replaces the pending writes by `records` (the journal's, oldest first), as read again
    /// when no write is being sent. Scopes keep their status and failure count.
    ///
    /// - Returns: Whether the set of pending writes changed, and the writes that left it, oldest
    ///   first.
    mutating func replace(with records: [OutboxRecord]) -> (changed: Bool, left: [OutboxRecord]) {
        let changed = records.count != entries.count || records.contains { entries[$0.id] == nil }
        guard changed || records.contains(where: { entries[$0.id]?.record != $0 }) else { return (false, []) }
        var left: [OutboxRecord] = []
        if changed {
            let ids = Set(records.map(\.id))
            left = entries.values.filter { !ids.contains($0.record.id) }.sorted { $0.sequence < $1.sequence }
                .map(\.record)
        }
        var kept: [String: Scope] = [:]
        entries = [:]
        nextSequence = 0
        ready = FIFOQueue()
        for record in records {
            entries[record.id] = Entry(sequence: nextSequence, record: record)
            nextSequence += 1
            if kept[record.scope] == nil {
                var scope = Scope()
                scope.status = scopes[record.scope]?.status ?? .idle
                scope.failures = scopes[record.scope]?.failures ?? 0
                kept[record.scope] = scope
            }
            kept[record.scope]?.ids.enqueue(record.id)
        }
        // A waiting scope with no writes left keeps its entry, so its timer finds it.
        for (name, scope) in scopes where kept[name] == nil && scope.status != .idle {
            kept[name] = Scope(status: scope.status, failures: scope.failures)
        }
        scopes = kept
        overwrites = overwrites.filter { entries[$0] != nil }
        held = held.filter { entries[$0] != nil }
        listEveryScope()
        return (changed, left)
    }

    /// The next write to send and its handler, its scope marked as sending: the oldest write of
    /// the scope listed longest ago that is idle and whose kind has a handler. `nil` when none
    /// is.
    ///
    /// - Parameter unhandled: Gets the kinds of oldest writes that had no handler; their
    ///   scopes are listed again by ``listEveryScope()`` when a handler is registered.
    mutating func next<Handler>(
        handlers: [String: Handler],
        unhandled: inout [String]
    ) -> (record: OutboxRecord, handler: Handler)? {
        while let name = ready.dequeue() {
            scopes[name]?.isListed = false
            guard scopes[name]?.status == .idle, var record = oldest(of: name), !held.contains(record.id) else {
                continue
            }
            record.overwritesConflict = overwrites.contains(record.id)
            guard let handler = handlers[record.kind] else {
                unhandled.append(record.kind)
                continue
            }
            scopes[name]?.status = .sending(record.id)
            sendingCount += 1
            return (record, handler)
        }
        return nil
    }

    /// Takes back ``next(handlers:unhandled:)``'s decision for `record`, which was not sent.
    mutating func unmark(_ record: OutboxRecord) {
        guard scopes[record.scope]?.status == .sending(record.id) else { return }
        scopes[record.scope]?.status = .idle
        sendingCount -= 1
        list(record.scope)
    }

    /// The send of `record` ended with the server's answer (sent or rejected): its scope goes on.
    mutating func answered(_ record: OutboxRecord) {
        guard scopes[record.scope]?.status == .sending(record.id) else { return }
        scopes[record.scope]?.status = .idle
        scopes[record.scope]?.failures = 0
        sendingCount -= 1
        list(record.scope)
    }

    /// The send of `record` failed and may be tried again.
    ///
    /// - Parameter wait: Given the scope's failed attempts since it last went on, whether to
    ///   wait for a retry (`true`) or stall until ``resume()`` (`false`).
    mutating func failed(_ record: OutboxRecord, wait: (_ failures: Int) -> Bool) {
        guard var scope = scopes[record.scope], scope.status == .sending(record.id) else { return }
        scope.failures += 1
        scope.status = wait(scope.failures) ? .waiting : .stalled
        scopes[record.scope] = scope
        sendingCount -= 1
    }

    /// The send of `record` conflicted and waits for the app: its scope sends nothing more until
    /// ``release(_:)``.
    mutating func hold(_ record: OutboxRecord) {
        guard scopes[record.scope]?.status == .sending(record.id) else { return }
        held.insert(record.id)
        scopes[record.scope]?.status = .idle
        scopes[record.scope]?.failures = 0
        sendingCount -= 1
    }

    /// The held scope of `record` goes on (its conflict was resolved for the app's version).
    mutating func release(_ record: OutboxRecord) {
        guard held.remove(record.id) != nil else { return }
        list(record.scope)
    }

    /// The retry delay of `scope` ran out: its oldest write may be sent again.
    mutating func retryDue(_ scope: String) {
        guard scopes[scope]?.status == .waiting else { return }
        scopes[scope]?.status = .idle
        list(scope)
    }

    /// Every waiting or stalled scope goes on at once, its failures forgotten.
    mutating func resume() {
        for name in Array(scopes.keys) where scopes[name]?.status == .waiting || scopes[name]?.status == .stalled {
            scopes[name]?.status = .idle
            scopes[name]?.failures = 0
        }
        listEveryScope()
    }

    /// Lists every scope that has writes again, from scratch: the scope of the oldest write
    /// first (after a write was taken back by ``unmark(_:)``, which listed its scope last).
    mutating func relistEveryScope() {
        ready = FIFOQueue()
        for name in Array(scopes.keys) {
            scopes[name]?.isListed = false
        }
        listEveryScope()
    }

    /// Lists every scope that has writes and is not listed yet (a handler was registered, the
    /// writes were read again), the scope of the oldest write first.
    mutating func listEveryScope() {
        var oldestFirst: [(sequence: Int, scope: String)] = []
        for name in Array(scopes.keys) {
            if let record = oldest(of: name), let sequence = entries[record.id]?.sequence {
                oldestFirst.append((sequence, name))
            }
        }
        for (_, name) in oldestFirst.sorted(by: { $0.sequence < $1.sequence }) {
            list(name)
        }
    }

    private mutating func list(_ name: String) {
        guard scopes[name]?.isListed == false else { return }
        scopes[name]?.isListed = true
        ready.enqueue(name)
    }

    /// The oldest pending write of scope `name`. Drops ids no longer pending from its front,
    /// and the scope itself once it is idle and empty.
    private mutating func oldest(of name: String) -> OutboxRecord? {
        while let id = scopes[name]?.ids.first {
            if let record = entries[id]?.record { return record }
            _ = scopes[name]?.ids.dequeue()
        }
        if scopes[name]?.status == .idle { scopes[name] = nil }
        return nil
    }
}

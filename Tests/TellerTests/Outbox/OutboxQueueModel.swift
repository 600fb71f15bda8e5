import Foundation
import TellerTestSupport

@testable import Teller

/// The outbox's part in a machine-level randomized test, on one thread, without files: the
/// real ``OutboxSendQueue`` decides which write is sent next, and this model does what
/// `TellerOutbox` does around it (the network pause, the retry timers, failures and rejections
/// kept for ``CacheState/writeError``, the notices in the order the outbox sends them) and plays
/// the server, which keeps the text of every write it took, once per idempotency key.
///
/// Sends start as soon as the queue allows (as the outbox pumps after every change); they end
/// when a step answers them. Every departure from an invariant is appended to ``issues``.
final class OutboxQueueModel: @unchecked Sendable {
    // @unchecked: used on one thread only.

    /// What the outbox tells Teller, in this order for one change.
    enum Notice {
        /// `Teller.invalidate(tag:)`, after the server answered a write to the tag.
        case invalidated(String)
        /// The writes to `tag` changed; `sent` left because the server took it.
        case writesChanged(tag: String, sent: OutboxRecord?)
    }

    /// How a write left the outbox.
    enum Fate: Equatable {
        case sent, rejected, discarded
    }

    /// How a send answers.
    enum Answer: CaseIterable {
        case sent, failsAndWaits, failsAndStalls, rejected
    }

    static let maxConcurrentSends = 2

    private(set) var queue = OutboxSendQueue()
    /// The sends under way: the server has not answered yet.
    private(set) var sending: [UUID: OutboxRecord] = [:]
    /// Scopes whose retry delay runs.
    private(set) var waitingScopes: Set<String> = []
    private(set) var isNetworkDown = false
    /// The last failed attempt of each pending write, and the rejections not acknowledged, each
    /// with the model's clock when it happened: the latest is the tag's write error.
    private var failures: [UUID: (error: TestError, at: Int)] = [:]
    private(set) var rejections: [(record: OutboxRecord, error: TestError, at: Int)] = []
    /// The texts the server took, per tag, in the order it took them.
    private(set) var server: [String: [String]] = [:]
    private var taken: Set<String> = []
    private(set) var fates: [UUID: Fate] = [:]
    /// Every write ever enqueued, oldest first.
    private(set) var enqueued: [OutboxRecord] = []
    private(set) var issues: [String] = []
    /// Where the notices go (the model's Teller).
    var notify: (Notice) -> Void = { _ in }
    private var clock = 0

    /// The text a write puts in its tag's data.
    static func text(of record: OutboxRecord) -> String {
        String(decoding: record.payload, as: UTF8.self)
    }

    /// The writes to `tag` as `Teller.writes(tag:)` reads them now.
    func writes(tag: String) -> TagWrites {
        let attempts = failures.compactMap { id, failure in queue.record(id)?.tag == tag ? failure : nil }
        let refused = rejections.filter { $0.record.tag == tag }.map { (error: $0.error, at: $0.at) }
        return TagWrites(
            pending: queue.pending.filter { $0.tag == tag },
            failure: (attempts + refused).max { $0.at < $1.at }?.error
        )
    }

    // MARK: The app

    /// `outbox.enqueue`: a write to `tag` in `scope` (by default the tag's), durable at once.
    @discardableResult
    func enqueue(tag: String, scope: String? = nil, now: Date) -> OutboxRecord {
        let number = enqueued.count + 1
        let record = OutboxRecord(
            id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number)) ?? UUID(),
            kind: "edit",
            tag: tag,
            scope: scope,
            payload: Data("\(tag) edit \(number)".utf8),
            createdAt: now
        )
        enqueued.append(record)
        queue.add(record)
        notify(.writesChanged(tag: tag, sent: nil))
        pump()
        return record
    }

    /// `outbox.discard(id:)`: the write leaves unsent (a send under way is not stopped; its
    /// answer is ignored).
    func discard(_ id: UUID) {
        guard let record = queue.remove(id) else { return }
        failures[id] = nil
        fates[id] = .discarded
        notify(.writesChanged(tag: record.tag, sent: nil))
        pump()
    }

    /// `outbox.acknowledge`: the app told the user of the oldest rejection.
    func acknowledgeRejection() {
        guard !rejections.isEmpty else { return }
        let rejection = rejections.removeFirst()
        notify(.writesChanged(tag: rejection.record.tag, sent: nil))
    }

    // MARK: The network and the server

    /// `networkDidBecomeUnavailable()`: nothing is sent until it is available again.
    func networkWentDown() {
        isNetworkDown = true
    }

    /// `networkDidBecomeAvailable()` or `appDidBecomeActive()`: the network counts as up, and
    /// waiting and stalled scopes go on at once.
    func resume() {
        isNetworkDown = false
        waitingScopes = []
        queue.resume()
        pump()
    }

    /// The retry delay of `scope` ran out.
    func retryDue(_ scope: String) {
        guard waitingScopes.remove(scope) != nil else { return }
        queue.retryDue(scope)
        pump()
    }

    /// The server answers the send of `id` (as `TellerOutbox.finish` handles the answer).
    func answer(_ id: UUID, _ answer: Answer) {
        guard let record = sending.removeValue(forKey: id) else { return }
        guard queue.status(ofScope: record.scope) == .sending(id) else {
            return fail("the send of \(Self.text(of: record)) answered while its scope does not send it")
        }
        let pending = queue.record(id)
        // A server that took the write before (its answer lost in a relaunch) says so again.
        let answer = taken.contains(record.idempotencyKey) ? .sent : answer
        clock += 1
        failures[id] = nil
        switch answer {
        case .sent:
            let text = Self.text(of: record)
            // Sent again after a relaunch lost the answer: the idempotency key makes it once.
            if taken.insert(record.idempotencyKey).inserted { server[record.tag, default: []].append(text) }
            if pending != nil {
                _ = queue.remove(id)
                fates[id] = .sent
            }
            queue.answered(record)
            notify(.invalidated(record.tag))
            if let pending { notify(.writesChanged(tag: record.tag, sent: pending)) }
        case .rejected:
            if pending != nil {
                _ = queue.remove(id)
                fates[id] = .rejected
                rejections.append((record, TestError(100 + clock), clock))
            }
            queue.answered(record)
            notify(.invalidated(record.tag))
            if pending != nil { notify(.writesChanged(tag: record.tag, sent: nil)) }
        case .failsAndWaits, .failsAndStalls:
            guard pending != nil else {
                queue.answered(record)
                break
            }
            failures[id] = (TestError(200 + clock), clock)
            queue.failed(record) { _ in answer == .failsAndWaits }
            if answer == .failsAndWaits { waitingScopes.insert(record.scope) }
            notify(.writesChanged(tag: record.tag, sent: nil))
        }
        pump()
    }

    /// The app is killed and launched again: the journal's pending writes and rejections are
    /// read back; sends under way, their answers, failures, retry timers and the network state
    /// are lost. A send under way may have reached the server (`reachedServer`), which then
    /// has it once whatever the next launch sends again.
    func relaunch(reachedServer: (OutboxRecord) -> Bool) {
        for record in sending.values.sorted(by: { $0.id.uuidString < $1.id.uuidString }) where reachedServer(record) {
            if taken.insert(record.idempotencyKey).inserted {
                server[record.tag, default: []].append(Self.text(of: record))
            }
        }
        sending = [:]
        waitingScopes = []
        failures = [:]
        isNetworkDown = false
        var fresh = OutboxSendQueue()
        _ = fresh.replace(with: queue.pending)
        queue = fresh
        pump()
    }

    /// Starts every send the queue allows, as the outbox's pump does after every change.
    func pump() {
        guard !isNetworkDown else { return }
        var unhandled: [String] = []
        while queue.sendingCount < Self.maxConcurrentSends,
            let (record, _) = queue.next(handlers: ["edit": ()], unhandled: &unhandled)
        {
            if let other = sending.values.first(where: { $0.scope == record.scope }) {
                fail("\(Self.text(of: record)) is sent while \(Self.text(of: other)) of its scope is")
            }
            sending[record.id] = record
        }
        if queue.sendingCount != sending.count {
            fail("the queue counts \(queue.sendingCount) sends, \(sending.count) are under way")
        }
    }

    // MARK: Checks

    /// Every write ended sent, rejected or discarded, nothing is pending, and the server took
    /// each sent write once.
    func checkDrained() {
        if !queue.isEmpty || !sending.isEmpty {
            fail("after draining, \(queue.pending.count) writes pending and \(sending.count) sends under way")
        }
        for record in enqueued where fates[record.id] == nil {
            fail("\(Self.text(of: record)) ended neither sent, rejected nor discarded")
        }
        for record in enqueued where fates[record.id] == .sent {
            let copies = server[record.tag, default: []].filter { $0 == Self.text(of: record) }.count
            if copies != 1 { fail("the server has \(Self.text(of: record)) \(copies) times") }
        }
        for record in enqueued where fates[record.id] == .rejected {
            if server[record.tag, default: []].contains(Self.text(of: record)) {
                fail("the server has \(Self.text(of: record)), which it rejected")
            }
        }
    }

    private func fail(_ message: String) {
        issues.append("outbox: \(message)")
    }
}

import Foundation
import TellerRx
import TellerTestSupport
import Testing

@testable import Teller

/// The outbox's scheduling decisions, without threads or files: random enqueues, sends,
/// answers, failures, retries, resumes, discards and re-reads, checked after every step against
/// a plain model. Must hold: one send per scope at a time, always the scope's oldest write;
/// nothing lost; and once resumed with every kind handled, every write goes out.
@Suite struct OutboxSendQueueRandomizedTests {
    /// What the queue must agree with: the pending writes in order and which are being sent.
    private struct Model {
        var pending: [OutboxRecord] = []
        var sending: Set<UUID> = []

        func oldest(of scope: String) -> OutboxRecord? {
            pending.first { $0.scope == scope }
        }
    }

    @Test(arguments: 0..<40)
    func everyWriteIsSentOneAtATimePerScopeOldestFirst(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var queue = OutboxSendQueue()
        var model = Model()
        let scopes = ["a", "b", "c"]
        let kinds = ["save", "delete"]
        var index = 0
        for _ in 0..<300 {
            switch random.below(8) {
            case 0, 1:
                let record = OutboxRecord(
                    kind: random.pick(kinds),
                    tag: random.pick(scopes),
                    payload: Data(),
                    createdAt: Date(timeIntervalSinceReferenceDate: Double(index))
                )
                index += 1
                queue.add(record)
                model.pending.append(record)
            case 2, 3:
                let handled = kinds.filter { _ in random.percent(70) }
                var unhandled: [String] = []
                guard
                    let (record, _) = queue.next(
                        handlers: Dictionary(uniqueKeysWithValues: handled.map { ($0, ()) }),
                        unhandled: &unhandled
                    )
                else { break }
                #expect(record == model.oldest(of: record.scope))
                #expect(
                    !model.sending.contains { id in model.pending.contains { $0.id == id && $0.scope == record.scope } }
                )
                #expect(handled.contains(record.kind))
                model.sending.insert(record.id)
            case 4:
                guard let id = model.sending.randomElement(using: &random),
                    let record = model.pending.first(where: { $0.id == id })
                else { break }
                model.sending.remove(id)
                if random.percent(50) {
                    _ = queue.remove(id)
                    queue.answered(record)
                    model.pending.removeAll { $0.id == id }
                } else {
                    let waits = random.percent(50)
                    queue.failed(record) { _ in waits }
                }
            case 5:
                queue.retryDue(random.pick(scopes))
            case 6:
                if random.percent(30) { queue.resume() }
                if queue.sendingCount == 0, random.percent(30) {
                    _ = queue.replace(with: model.pending)
                }
            default:
                guard let record = model.pending.randomElement(using: &random), !model.sending.contains(record.id)
                else { break }
                _ = queue.remove(record.id)
                model.pending.removeAll { $0.id == record.id }
            }
            #expect(queue.pending == model.pending)
            #expect(queue.sendingCount == model.sending.count)
        }

        // Everything in flight answers, every kind gets a handler, a trigger comes: all goes out.
        for id in model.sending {
            if let record = model.pending.first(where: { $0.id == id }) {
                _ = queue.remove(id)
                queue.answered(record)
            }
        }
        queue.resume()
        let everyKind = Dictionary(uniqueKeysWithValues: kinds.map { ($0, ()) })
        var unhandled: [String] = []
        var sent: [OutboxRecord] = []
        while let (record, _) = queue.next(handlers: everyKind, unhandled: &unhandled) {
            #expect(queue.sendingCount == 1)
            _ = queue.remove(record.id)
            queue.answered(record)
            sent.append(record)
        }
        #expect(queue.pending.isEmpty)
        let expected = model.pending.filter { !model.sending.contains($0.id) }
        #expect(Set(sent.map(\.id)) == Set(expected.map(\.id)))
        for scope in scopes {
            #expect(sent.filter { $0.scope == scope } == expected.filter { $0.scope == scope })
        }
        #expect(unhandled.isEmpty)
    }
}

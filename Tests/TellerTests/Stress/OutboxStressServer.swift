import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport

/// The fake server of ``OutboxRandomizedStressTests``: one list of note texts per tag, and a
/// handler for the outbox whose answers misbehave as a seeded die says (at once, from another
/// thread, a few milliseconds later, after the outbox's timeout, twice, as a failed `Single`,
/// never).
///
/// The server is consistent, as one that honours idempotency keys is: the first time it decides
/// on a key (taken or refused), every later send with that key gets the same answer, and a taken
/// write is added to its list once. A conflict or a busy answer decides nothing. It counts the
/// sends under way per scope, from the handler's subscription to its answer or disposal, and
/// notes any that began while another of its scope was under way.
final class OutboxStressServer: Sendable {
    enum Verdict {
        case taken, refused
    }

    /// How one send is answered.
    enum Style {
        case atOnce, fromAnotherThread, milliseconds, afterTheTimeout, twice, fails, never
    }

    struct Refused: Error {}
    struct Busy: Error {}
    struct Offline: Error {}
    struct Stale: Error {}
    /// The second answer of a handler that answers twice: its description is what TellerRx's
    /// misuse report of it holds.
    struct SecondAnswer: Error, CustomStringConvertible {
        var description: String { "OutboxStressServer.SecondAnswer" }
    }

    private struct State {
        var random: SplitMix64
        var isOnline = true
        var isCalm = false
        var lists: [String: [String]]
        var verdicts: [String: Verdict] = [:]
        var keysByID: [UUID: Set<String>] = [:]
        var underWay: [String: Int] = [:]
        var overlaps: [String] = []
        var answeredTwice = 0
    }

    private let state: Locked<State>
    /// Counted, so the scenario's rest waits for late answers too.
    private let scheduler: any SchedulerType
    private let otherThreads: [any SchedulerType]

    init(seed: UInt64, lists: [String: [String]], counter: WorkCounter) {
        state = Locked(State(random: SplitMix64(seed: seed), lists: lists))
        scheduler = CountingScheduler(ConcurrentDispatchQueueScheduler(qos: .userInitiated), counter: counter)
        otherThreads = (0..<3).map {
            CountingScheduler(
                SerialDispatchQueueScheduler(internalSerialQueueName: "outbox-stress.server.\($0)"),
                counter: counter
            )
        }
    }

    // MARK: What the test reads

    func list(tag: String) -> [String] {
        state.withLock { $0.lists[tag] ?? [] }
    }

    func verdict(key: String) -> Verdict? {
        state.withLock { $0.verdicts[key] }
    }

    /// The idempotency keys the sends of write `id` came with.
    func keys(id: UUID) -> Set<String> {
        state.withLock { $0.keysByID[id] ?? [] }
    }

    var overlaps: [String] {
        state.value.overlaps
    }

    var answeredTwice: Int {
        state.value.answeredTwice
    }

    func setOnline(_ isOnline: Bool) {
        state.withLock { $0.isOnline = isOnline }
    }

    /// From now on the server is online and answers every send at once or from another thread,
    /// taking or refusing it.
    func calmDown() {
        state.withLock { state in
            state.isCalm = true
            state.isOnline = true
        }
    }

    // MARK: The handler

    /// The outbox's handler for every kind.
    func send(_ record: OutboxRecord) -> Single<OutboxSendOutcome> {
        Single.create { [self] answer in
            let (style, thread, delay) = begin(record)
            let send = SendUnderWay(record.scope, server: self)
            // The send ends before its answer reaches the outbox, which may start the scope's next
            // send from within that answer.
            let answerOnce = { @Sendable in
                let outcome = self.decide(record)
                send.end()
                answer(.success(outcome))
            }
            switch style {
            case .atOnce:
                answerOnce()
            case .fromAnotherThread:
                _ = otherThreads[thread].schedule(()) { _ in
                    answerOnce()
                    return Disposables.create()
                }
            case .milliseconds, .afterTheTimeout:
                _ = scheduler.scheduleRelative((), dueTime: .milliseconds(delay)) { _ in
                    answerOnce()
                    return Disposables.create()
                }
            case .twice:
                answerOnce()
                state.withLock { $0.answeredTwice += 1 }
                answer(.success(.rejected(SecondAnswer())))
            case .fails:
                send.end()
                answer(.failure(Offline()))
            case .never:
                break
            }
            return Disposables.create { send.end() }
        }
    }

    private func begin(_ record: OutboxRecord) -> (Style, thread: Int, delay: Int) {
        state.withLock { state in
            let count = (state.underWay[record.scope] ?? 0) + 1
            state.underWay[record.scope] = count
            if count > 1 {
                state.overlaps.append("a send of \(record.id) began while \(count - 1) of scope \(record.scope) ran")
            }
            let style: Style =
                state.isCalm
                ? state.random.pick([.atOnce, .fromAnotherThread])
                : state.random.pick(
                    [.atOnce, .fromAnotherThread, .milliseconds, .afterTheTimeout, .twice, .fails, .never],
                    weights: [8, 8, 6, 1, 1, 1, 1]
                )
            let delay = style == .afterTheTimeout ? 80 : state.random.int(1...5)
            return (style, state.random.below(3), delay)
        }
    }

    fileprivate func ended(scope: String) {
        state.withLock { $0.underWay[scope, default: 1] -= 1 }
    }

    /// What the server does with the write, and answers.
    private func decide(_ record: OutboxRecord) -> OutboxSendOutcome {
        let text = (try? JSONDecoder().decode(NoteEdit.self, from: record.payload).text) ?? "?"
        return state.withLock { state -> OutboxSendOutcome in
            let key = record.idempotencyKey
            state.keysByID[record.id, default: []].insert(key)
            guard state.isOnline else { return .retryableFailure(Offline()) }
            switch state.verdicts[key] {
            case .taken: return .sent()
            case .refused: return .rejected(Refused())
            case nil: break
            }
            let canConflict = !state.isCalm && !record.overwritesConflict
            let roll = state.random.below(100)
            if roll < 15 {
                state.verdicts[key] = .refused
                return .rejected(Refused())
            } else if roll < 25, canConflict {
                return .conflict(Stale())
            } else if roll < 35, !state.isCalm {
                return .retryableFailure(Busy())
            }
            state.verdicts[key] = .taken
            state.lists[record.tag, default: []].append(text)
            return .sent(invalidating: roll < 50 ? [record.tag] : [])
        }
    }
}

/// One send the server counts as under way until it is answered or disposed, whichever comes
/// first.
private final class SendUnderWay: Sendable {
    private let scope: String
    private let server: OutboxStressServer
    private let isOver = Locked(false)

    init(_ scope: String, server: OutboxStressServer) {
        self.scope = scope
        self.server = server
    }

    func end() {
        let isFirst = isOver.withLock { isOver in
            defer { isOver = true }
            return !isOver
        }
        if isFirst { server.ended(scope: scope) }
    }
}

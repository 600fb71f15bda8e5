import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport

/// Three real queues that say which one runs the caller: the UI queue (serial), the background
/// queue (concurrent) and "elsewhere", a serial queue of the data source's own (a database's
/// notification queue) that neither is.
struct LabelledQueues: Sendable {
    static let key = DispatchSpecificKey<String>()

    let ui = DispatchQueue(label: "engine-defects.ui")
    let background = DispatchQueue(label: "engine-defects.background", attributes: .concurrent)
    let elsewhere = DispatchQueue(label: "engine-defects.elsewhere")

    init() {
        ui.setSpecific(key: Self.key, value: "ui")
        background.setSpecific(key: Self.key, value: "background")
        elsewhere.setSpecific(key: Self.key, value: "elsewhere")
    }

    /// The label of the queue running the caller ("other" for none of the three).
    static var current: String {
        DispatchQueue.getSpecific(key: key) ?? "other"
    }

    /// A Teller on these queues, logging into `log` and calling `onLog` with every event.
    func teller(
        log: Locked<[String]> = Locked([]),
        onLog: (@Sendable (TellerLogEvent) -> Void)? = nil
    ) -> Teller {
        Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: SerialDispatchQueueScheduler(queue: ui, internalSerialQueueName: "engine-defects.ui-serial"),
            backgroundScheduler: ConcurrentDispatchQueueScheduler(queue: background),
            fetchTimeout: .seconds(600),
            logger: { event in
                log.withLock { $0.append(event.description) }
                onLog?(event)
            }
        )
    }

    /// Where a data source's observation emits when it emits from its own queue.
    var elsewhereScheduler: SerialDispatchQueueScheduler {
        SerialDispatchQueueScheduler(queue: elsewhere, internalSerialQueueName: "engine-defects.elsewhere-serial")
    }
}

/// Writes of one tag made by several data sources, one test's record: how many ran at once,
/// and a gate that holds the first write until the test opens it.
final class WriteRecord: Sendable {
    private struct State {
        var running = 0
        var maximum = 0
        var started = 0
        var overlaps: [String] = []
    }

    private let state = Locked(State())
    /// Signalled when the first write is held at the gate.
    let firstWriteHeld = DispatchSemaphore(value: 0)
    /// Signalled when any write after the first starts.
    let laterWriteStarted = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    /// The most writes that ran at the same time.
    var maximumAtOnce: Int {
        state.value.maximum
    }

    /// The writes that started while another one ran.
    var overlaps: [String] {
        state.value.overlaps
    }

    /// Lets the held first write go on.
    func openGate() {
        gate.signal()
    }

    /// The hook for `InMemoryPagedDataSource.onWrite`: `true` when a write starts, `false` when
    /// it ends. The first write waits at the gate once it counts as running.
    func hook(named name: String) -> @Sendable (Bool) -> Void {
        { [self] starts in
            guard starts else {
                state.withLock { $0.running -= 1 }
                return
            }
            let number = state.withLock { state -> Int in
                state.running += 1
                state.started += 1
                state.maximum = max(state.maximum, state.running)
                if state.running > 1 { state.overlaps.append("\(name) write \(state.started)") }
                return state.started
            }
            if number == 1 {
                firstWriteHeld.signal()
                gate.wait()
            } else {
                laterWriteStarted.signal()
            }
        }
    }
}

/// Waits for `semaphore`, at most `seconds`: `true` if it was signalled.
///
/// Used only to look for something that must *not* happen (a write starting while another is
/// held): on code without the defect nothing comes and the wait runs out, which passes; on code
/// with it the event comes within milliseconds. Passing never depends on the wait being long.
func arrives(_ semaphore: DispatchSemaphore, within seconds: Double) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}

extension PageNumberDataSource {
    /// Answers every fetch at once with page `n` holding `["page n"]`, more pages always
    /// existing; `onFetch` hears of each fetch first.
    func answerAtOnce(onFetch: @escaping @Sendable (PageNumber) -> Void = { _ in }) {
        respond { page in
            onFetch(page)
            let response = PagedFetchResponse<[String], Void>(
                areMorePages: true,
                nextPageRequirements: nil,
                fetchResponse: ["page \(page.number)"]
            )
            return .just(.success(response))
        }
    }
}

/// A logger hook that signals `semaphore` once a refresh of the tag was cancelled or skipped as
/// cancelled (what disposing the only caller's `Single` leads to).
func signalOnCancellation(_ semaphore: DispatchSemaphore) -> @Sendable (TellerLogEvent) -> Void {
    { event in
        switch event {
        case .refreshCancelled, .refreshSkipped(_, .cancelled): semaphore.signal()
        default: break
        }
    }
}

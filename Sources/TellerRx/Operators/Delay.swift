import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ObservableType {
    /// Shifts every element and the completion forward in time by `dueTime`; an error is not
    /// delayed.
    ///
    /// Each element is sent on `scheduler` `dueTime` after the source sent it (measured with
    /// `scheduler.now`), in order. When the source completes, the completion follows the last
    /// delayed element. When the source fails, the error is sent at once and the elements still
    /// waiting are dropped. The source subscription is disposed as soon as the source ends.
    ///
    /// - Parameters:
    ///   - dueTime: How long each event is held back.
    ///   - scheduler: Runs the timers and sends the delayed events.
    /// - Returns: The source sequence shifted in time.
    public func delay(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        DelayProducer(source: asObservable(), dueTime: dueTime, scheduler: scheduler, completionInItsOwnRun: false)
    }

    /// ``delay(_:scheduler:)`` for the traits: a completion due together with the element
    /// before it is sent in a scheduled run of its own, as RxSwift's `delay` (which sends one
    /// event per run) does for a `Single` or `Maybe`. On a virtual-time scheduler that puts it
    /// one tick after the element.
    func delay(
        _ dueTime: RxTimeInterval,
        scheduler: any SchedulerType,
        completionInItsOwnRun: Bool
    ) -> Observable<Element> {
        DelayProducer(
            source: asObservable(),
            dueTime: dueTime,
            scheduler: scheduler,
            completionInItsOwnRun: completionInItsOwnRun
        )
    }
}

private final class DelayProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let scheduler: any SchedulerType
    let completionInItsOwnRun: Bool

    init(
        source: Observable<Element>,
        dueTime: RxTimeInterval,
        scheduler: any SchedulerType,
        completionInItsOwnRun: Bool
    ) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
        self.completionInItsOwnRun = completionInItsOwnRun
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = DelaySink(
            dueTime: dueTime,
            scheduler: scheduler,
            completionInItsOwnRun: completionInItsOwnRun,
            observer: observer,
            downstream: downstream
        )
        sink.setSubscription(sink.run(source))
        return sink
    }
}

/// Holds delayed events in a queue with their due dates; one scheduled drain at a time sends
/// the events that are due and schedules itself for the next one.
///
/// Forwarding is serialized without holding a lock while calling downstream: only the drain
/// sends elements and completion (`isRunning`), and an error is sent by the source's thread
/// only when no drain is running; otherwise the drain sends it next.
private final class DelaySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: all mutable state is in `state`; the rest is immutable or thread-safe.
    typealias Element = Observer.Element

    private struct State {
        var queue = FIFOQueue<(due: Date, event: Event<Element>)>()
        /// A drain is scheduled or running.
        var isActive = false
        /// A drain is sending events now.
        var isRunning = false
        /// The source ended; later events are ignored.
        var isStopped = false
        var error: (any Error)?
        /// The terminal event has been sent.
        var isDone = false
    }

    private let dueTime: RxTimeInterval
    private let scheduler: any SchedulerType
    /// Traits: a completion after an element sent in the same run waits for a new run.
    private let completionInItsOwnRun: Bool
    private let state = LockedState(State())
    private let sourceSubscription = SubscriptionSlot()
    private let timer = SerialDisposable()

    init(
        dueTime: RxTimeInterval,
        scheduler: any SchedulerType,
        completionInItsOwnRun: Bool,
        observer: Observer,
        downstream: SubscriptionSlot?
    ) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        self.completionInItsOwnRun = completionInItsOwnRun
        super.init(observer: observer, downstream: downstream)
    }

    func run(_ source: Observable<Element>) -> any Disposable {
        source.subscribe(self, upstreamOf: sourceSubscription)
        return Disposables.create(sourceSubscription, timer)
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent { sourceSubscription.dispose() }
        switch event {
        case .error(let error):
            let sendNow = state.withLock { state -> Bool in
                if state.isStopped { return false }
                state.isStopped = true
                state.queue.removeAll()
                state.error = error
                if state.isRunning { return false }
                state.isDone = true
                return true
            }
            if sendNow {
                forwardOn(event)
                dispose()
            }
        case .next, .completed:
            let due = scheduler.now.addingTimeInterval(dueTime.seconds)
            let startDrain = state.withLock { state -> Bool in
                if state.isStopped { return false }
                if event.isStopEvent { state.isStopped = true }
                state.queue.enqueue((due, event))
                if state.isActive { return false }
                state.isActive = true
                return true
            }
            if startDrain { scheduleDrain(after: dueTime) }
        }
    }

    private func scheduleDrain(after interval: RxTimeInterval) {
        timer.disposable = scheduler.scheduleRelative(self, dueTime: interval) { sink in
            sink.drain()
            return Disposables.create()
        }
    }

    private enum Step {
        case send(Event<Element>)
        case fail(any Error)
        case wait(RxTimeInterval)
        case idle
    }

    private func drain() {
        var sentElement = false
        while true {
            let now = scheduler.now
            let step = state.withLock { state -> Step in
                if state.isDone { return .idle }
                if let error = state.error {
                    state.isDone = true
                    return .fail(error)
                }
                guard let due = state.queue.first?.due else {
                    state.isRunning = false
                    state.isActive = false
                    return .idle
                }
                if due > now {
                    state.isRunning = false
                    return .wait(.clamped(seconds: due.timeIntervalSince(now)))
                }
                if sentElement && completionInItsOwnRun && state.isStopped && state.queue.count == 1 {
                    // Only the completion is left, due with the element just sent: a new run.
                    state.isRunning = false
                    return .wait(.nanoseconds(0))
                }
                state.isRunning = true
                guard let event = state.queue.dequeue()?.event else { return .idle }
                if event.isStopEvent { state.isDone = true }
                return .send(event)
            }
            switch step {
            case .send(let event):
                forwardOn(event)
                if event.isStopEvent {
                    dispose()
                    return
                }
                sentElement = true
            case .fail(let error):
                forwardOn(.error(error))
                dispose()
                return
            case .wait(let interval):
                scheduleDrain(after: interval)
                return
            case .idle:
                return
            }
        }
    }
}

import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

extension ObservableType {
    /// Delivers the source's events on `scheduler`, in order.
    ///
    /// Events are queued as they arrive (on whatever thread the source sends them) and one
    /// scheduled drain delivers every queued event, so a burst costs one hop to the scheduler,
    /// not one per event. Order is kept, the terminal event is delivered after every element
    /// before it, and the source subscription is disposed once the terminal event has been
    /// delivered. Disposing the subscription stops delivery before the next queued event and
    /// frees the queue at once.
    ///
    /// - On a ``SerialDispatchQueueScheduler`` events run on its queue.
    /// - On ``MainScheduler/instance`` an event sent on the main thread with nothing queued
    ///   ahead is delivered at once, synchronously (as in RxSwift); otherwise it goes through
    ///   the main queue. ``MainScheduler/asyncInstance`` always goes through the queue.
    /// - On a virtual-time scheduler (`TestScheduler`) each event arrives one tick after it was
    ///   sent, as with RxTest.
    /// - A drain yields the scheduler after about a thousand events and continues in a new
    ///   scheduled run, so a fast source cannot monopolize a shared queue.
    ///
    /// Only the delivery of events moves; to move the subscription work use
    /// ``ObservableType/subscribe(on:)``.
    ///
    /// ```swift
    /// fetchUser()                              // emits on a background queue
    ///     .observe(on: MainScheduler.instance)
    ///     .subscribe(onNext: { label.text = $0.name })  // runs on the main thread
    /// ```
    ///
    /// - Parameter scheduler: Where the observer receives events.
    /// - Returns: The source sequence, delivered on `scheduler`.
    public func observe(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        ObserveOnProducer(source: asObservable(), target: DrainTarget(scheduler), completionInItsOwnRun: false)
    }

    /// The older spelling of ``ObservableType/observe(on:)``, kept so code written for RxSwift 5
    /// (and the Teller README) compiles unchanged. Identical behaviour.
    ///
    /// - Parameter scheduler: Where the observer receives events.
    /// - Returns: The source sequence, delivered on `scheduler`.
    public func observeOn(_ scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }

    /// ``observe(on:)`` for the traits: a completion that follows an element delivered in the
    /// same scheduled run is delivered in a run of its own, as RxSwift's `observeOn` (which
    /// schedules every event separately) does for a `Single` or `Maybe`. On a virtual-time
    /// scheduler that puts it one tick after the element.
    func observe(on scheduler: any ImmediateSchedulerType, completionInItsOwnRun: Bool) -> Observable<Element> {
        ObserveOnProducer(
            source: asObservable(),
            target: DrainTarget(scheduler),
            completionInItsOwnRun: completionInItsOwnRun
        )
    }
}

/// How a drain gets onto the target scheduler.
private enum DrainTarget: Sendable {
    /// A plain serial queue: `async` directly, nothing to cancel per batch.
    case queue(DispatchQueue)
    /// Any other scheduler (main, current thread, virtual time, concurrent, custom).
    case scheduler(any ImmediateSchedulerType)

    /// Whether a drain that found the queue empty may yield the CPU once and look again before
    /// it ends. Only on a background serial queue: never on the main thread (a serial queue
    /// may target the main queue, as `MainScheduler.asyncInstance` does), and never on virtual
    /// time, where it would change nothing.
    var mayLingerBeforeIdle: Bool {
        guard case .queue = self else { return false }
        return !MainScheduler.isMainThread
    }

    init(_ scheduler: any ImmediateSchedulerType) {
        // MainScheduler keeps its own `schedule`, which runs at once on the main thread.
        if let serial = scheduler as? SerialDispatchQueueScheduler, !(serial is MainScheduler) {
            self = .queue(serial.configuration.queue)
        } else {
            self = .scheduler(scheduler)
        }
    }
}

private final class ObserveOnProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let target: DrainTarget
    let completionInItsOwnRun: Bool

    init(source: Observable<Element>, target: DrainTarget, completionInItsOwnRun: Bool) {
        self.source = source
        self.target = target
        self.completionInItsOwnRun = completionInItsOwnRun
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = ObserveOnSink(
            target: target,
            completionInItsOwnRun: completionInItsOwnRun,
            observer: observer,
            downstream: downstream
        )
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

/// Queues elements under a lock; one drain at a time delivers them on the target.
///
/// The producer appends elements to `queue` (no ``Event`` built for each: a run-time metadata
/// lookup each in unspecialized generic code) and a terminal event to `terminal`, which comes
/// after everything queued; the drain swaps the whole queue for an empty buffer and
/// delivers the batch outside the lock, so each event costs one short lock and an append, and
/// each batch one hop. Two buffers alternate, so a steady stream allocates nothing.
///
/// On a serial queue, a drain that finds the queue empty yields the CPU once and looks again
/// before it ends: when the observer is faster than the source, this keeps the drain alive
/// across the source's next few events instead of ending it and paying a new `async` plus a
/// thread wake-up for each small batch (measured: about a fifth less CPU per event).
private final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: all mutable state is in `state`.
    typealias Element = Observer.Element

    /// Events one drain delivers before it yields the scheduler and continues in a new run.
    private static var yieldAfter: Int { 1024 }
    /// Largest emptied buffer kept for reuse; a bigger one (after a burst) is freed.
    private static var maxSpareCapacity: Int { 4096 }

    private struct State {
        var queue: [Element] = []
        var spare: [Element] = []
        /// The terminal event, delivered after every element in `queue`.
        var terminal: SinkTerminal?
        /// A drain is scheduled or running; new events only need queueing.
        var isDraining = false
        /// A terminal event was queued; anything after it is dropped.
        var isStopped = false
        var isDisposed = false
        /// The pending drain on a generic scheduler, cancelled by `dispose()`.
        var drainWork: (any Disposable)?

        /// Marks a drain needed and returns `true` if none is scheduled or running yet.
        mutating func claimDrain() -> Bool {
            if isDraining { return false }
            isDraining = true
            return true
        }

        var isEmpty: Bool { queue.isEmpty && terminal == nil }
    }

    private let target: DrainTarget
    /// Traits: a completion after an element delivered in the same run waits for a new run.
    private let completionInItsOwnRun: Bool
    private let state = LockedState(State())

    init(target: DrainTarget, completionInItsOwnRun: Bool, observer: Observer, downstream: SubscriptionSlot?) {
        self.target = target
        self.completionInItsOwnRun = completionInItsOwnRun
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        let startDrain = state.withLock { state -> Bool in
            if state.isStopped || state.isDisposed { return false }
            state.queue.append(element)
            return state.claimDrain()
        }
        if startDrain { scheduleDrain() }
    }

    func on(_ event: Event<Element>) {
        let terminal: SinkTerminal
        switch event {
        case .next(let element):
            onNext(element)
            return
        case .error(let error):
            terminal = .failed(error)
        case .completed:
            terminal = .completed
        }
        let startDrain = state.withLock { state -> Bool in
            if state.isStopped || state.isDisposed { return false }
            state.isStopped = true
            state.terminal = terminal
            return state.claimDrain()
        }
        if startDrain { scheduleDrain() }
    }

    private func scheduleDrain() {
        switch target {
        case .queue(let queue):
            queue.async { self.drain() }
        case .scheduler(let scheduler):
            let work = scheduler.schedule(self) { sink in
                sink.drain()
                return Disposables.create()
            }
            // Keep it so that disposal cancels a drain that has not run yet. If the drain
            // already ran (immediate schedulers), there is nothing to keep.
            let disposeNow = state.withLock { state -> Bool in
                if state.isDisposed { return true }
                if state.isDraining { state.drainWork = work }
                return false
            }
            if disposeNow { work.dispose() }
        }
    }

    private enum Step {
        case deliver
        case linger
        case yield
        case stop
    }

    private func drain() {
        var batch: [Element] = []
        var batchTerminal: SinkTerminal?
        var delivered = 0
        var isFirstPass = true
        let mayLingerBeforeIdle = target.mayLingerBeforeIdle
        var mayLinger = mayLingerBeforeIdle
        while true {
            let step = state.withLock { state -> Step in
                if isFirstPass {
                    swap(&batch, &state.spare)
                    isFirstPass = false
                }
                if state.isDisposed { return .stop }
                if state.isEmpty && mayLinger { return .linger }
                if state.isEmpty || delivered >= Self.yieldAfter {
                    // Hand the emptied buffer back for the next drain.
                    if batch.capacity <= Self.maxSpareCapacity { swap(&batch, &state.spare) }
                    if !state.isEmpty { return .yield }
                    state.isDraining = false
                    state.drainWork = nil
                    return .stop
                }
                swap(&batch, &state.queue)
                batchTerminal = state.terminal.take()
                return .deliver
            }
            switch step {
            case .linger:
                // Once per empty queue: let the source run, then look again.
                mayLinger = false
                sched_yield()
            case .stop:
                return
            case .yield:
                scheduleDrain()
                return
            case .deliver:
                for index in batch.indices {
                    if isDisposed { return }
                    forwardNext(batch[index])
                }
                delivered += batch.count
                batch.removeAll(keepingCapacity: true)
                mayLinger = mayLingerBeforeIdle
                if let terminal = batchTerminal {
                    deliver(terminal, afterElementsInThisRun: delivered > 0)
                    return
                }
            }
        }
    }

    /// Sends the terminal event that followed the last batch, then disposes.
    private func deliver(_ terminal: SinkTerminal, afterElementsInThisRun: Bool) {
        if isDisposed { return }
        switch terminal {
        case .completed:
            // Elements came before it in this run: the completion waits for the next.
            if completionInItsOwnRun && afterElementsInThisRun {
                deliverCompletionInANewRun()
                return
            }
            forwardOn(.completed)
        case .failed(let error):
            forwardOn(.error(error))
        }
        dispose()
    }

    /// Puts the completion back as the only queued event and schedules a new drain for it;
    /// the drain stays marked active meanwhile, so nothing else schedules one.
    private func deliverCompletionInANewRun() {
        let isDisposed = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            // Nothing is queued after a terminal event.
            state.terminal = .completed
            return false
        }
        if !isDisposed { scheduleDrain() }
    }

    override func dispose() {
        super.dispose()
        var dropped: [Element] = []
        var droppedTerminal: SinkTerminal?
        let work = state.withLock { state -> (any Disposable)? in
            state.isDisposed = true
            swap(&dropped, &state.queue)
            droppedTerminal = state.terminal.take()
            defer { state.drainWork = nil }
            return state.drainWork
        }
        // Queued elements (and a queued error) are freed here, outside the lock.
        dropped.removeAll()
        _ = droppedTerminal.take()
        work?.dispose()
    }
}

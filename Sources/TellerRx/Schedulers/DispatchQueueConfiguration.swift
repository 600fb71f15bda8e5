import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Dispatch plumbing shared by the queue-based schedulers: immediate work with
/// `async`, delayed and periodic work with timer sources. Disposing frees the action and its
/// state at once: Dispatch itself lets go of a block or a cancelled timer's handler only later
/// (when the queue reaches it), so the blocks hold only the work object, which drops the action
/// when disposed.
struct DispatchQueueConfiguration: Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval
    /// Whether `queue` is one the scheduler made itself on a global queue, which libdispatch
    /// drains whatever the process does (see ``SelfDrainingScheduler``). A queue the app passed
    /// in may be, or target, the main queue, which only a run loop or `dispatchMain()` drains.
    let drainsItself: Bool

    func schedule<StateType: Sendable>(
        _ state: StateType,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let work = ScheduledWork { action(state) }
        queue.async { work.run() }
        return work
    }

    func scheduleRelative<StateType: Sendable>(
        _ state: StateType,
        dueTime: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        // Due now: the queue's next turn, as a timer that fires at once would give, without
        // making a timer source (its allocations, and Dispatch's timer thread passing it on).
        if dueTime != .never, dueTime.nanoseconds <= 0 {
            return schedule(state, action: action)
        }
        let work = ScheduledWork { action(state) }
        let timer = UncheckedSendable(DispatchSource.makeTimerSource(queue: queue))
        timer.value.schedule(deadline: deadline(after: dueTime), leeway: leeway)
        timer.value.setEventHandler {
            timer.value.cancel()
            work.run()
        }
        work.onDispose { timer.value.cancel() }
        timer.value.resume()
        return work
    }

    func schedulePeriodic<StateType: Sendable>(
        _ state: StateType,
        startAfter: RxTimeInterval,
        period: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> StateType
    ) -> any Disposable {
        let timer = UncheckedSendable(DispatchSource.makeTimerSource(queue: queue))
        timer.value.schedule(deadline: deadline(after: startAfter), repeating: period, leeway: leeway)
        let work = PeriodicWork(state: state, action: action) { timer.value.cancel() }
        timer.value.setEventHandler { work.tick() }
        timer.value.resume()
        return work
    }
}

/// Work scheduled on a queue that may be disposed before or while it runs.
///
/// Not counted in ``Resources``: Dispatch may hold this small shell for a while after disposal
/// (until it reaches the block or processes the timer's cancellation), but the action and
/// everything it captured are released at once.
final class ScheduledWork: Cancelable, @unchecked Sendable {
    // @unchecked: all mutable state is in `state`.
    private struct State {
        var isDisposed = false
        var inner: (any Disposable)?
        var onDispose: (@Sendable () -> Void)?
        /// The action `run()` runs; dropped when it runs or when the work is disposed.
        var pending: (@Sendable () -> any Disposable)?
    }

    private let state = LockedState(State())

    /// Work that keeps `action` until ``run()`` runs it or ``dispose()`` drops it, so that
    /// whatever holds the work (a queued block, a timer handler) does not keep the action alive.
    init(_ action: @escaping @Sendable () -> any Disposable) {
        state.withLock { $0.pending = action }
    }

    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    func onDispose(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.onDispose = action
            return false
        }
        if runNow { action() }
    }

    /// Runs the action given to ``init(_:)`` unless the work was disposed.
    func run() {
        let action = state.withLock { state -> (@Sendable () -> any Disposable)? in
            defer { state.pending = nil }
            return state.isDisposed ? nil : state.pending
        }
        guard let action else { return }
        let inner = action()
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.inner = inner
            state.onDispose = nil
            return false
        }
        if disposeNow { inner.dispose() }
    }

    func dispose() {
        var pending: (@Sendable () -> any Disposable)?
        let (inner, onDispose) = state.withLock { state -> ((any Disposable)?, (@Sendable () -> Void)?) in
            guard !state.isDisposed else { return (nil, nil) }
            state.isDisposed = true
            swap(&pending, &state.pending)
            defer {
                state.inner = nil
                state.onDispose = nil
            }
            return (state.inner, state.onDispose)
        }
        // The action (and the state it captured) is released here, outside the lock.
        pending = nil
        onDispose?()
        inner?.dispose()
    }
}

/// A periodic timer's action and state; disposing cancels the timer and drops both at once.
/// Ticks run serially (the timer's handler never overlaps itself), so only disposal races them.
/// Not counted in ``Resources``, for the same reason as ``ScheduledWork``.
private final class PeriodicWork<StateType: Sendable>: Cancelable, @unchecked Sendable {
    // @unchecked: all mutable state is in `state`; `cancelTimer` is immutable.
    private struct State {
        var isDisposed = false
        var current: StateType?
        var action: (@Sendable (StateType) -> StateType)?
    }

    private let state: LockedState<State>
    private let cancelTimer: @Sendable () -> Void

    init(
        state initial: StateType,
        action: @escaping @Sendable (StateType) -> StateType,
        cancelTimer: @escaping @Sendable () -> Void
    ) {
        state = LockedState(State(current: initial, action: action))
        self.cancelTimer = cancelTimer
    }

    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    func tick() {
        let next = state.withLock { state -> (StateType, @Sendable (StateType) -> StateType)? in
            guard !state.isDisposed, let current = state.current, let action = state.action else { return nil }
            return (current, action)
        }
        guard let (current, action) = next else { return }
        let updated = action(current)
        state.withLock { state in
            if !state.isDisposed { state.current = updated }
        }
    }

    func dispose() {
        var dropped = State()
        let wasDisposed = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            swap(&dropped, &state)
            state.isDisposed = true
            return false
        }
        if wasDisposed { return }
        cancelTimer()
        // The action and the state are released here, outside the lock.
        dropped = State()
    }
}

private func deadline(after interval: RxTimeInterval) -> DispatchTime {
    if case .never = interval { return .distantFuture }
    return DispatchTime.now() + DispatchTimeInterval.nanoseconds(max(0, interval.nanoseconds))
}

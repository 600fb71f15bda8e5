import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Dispatch plumbing shared by the queue-based schedulers: immediate work with
/// `async`, delayed and periodic work with timer sources (cancelling a timer releases its
/// work at once, unlike `asyncAfter`, so a disposed timeout frees what it captured).
struct DispatchQueueConfiguration: Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

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
        // The timer's handlers run serially on `queue`, so the state needs no lock of its own.
        let current = UncheckedBox(state)
        let cancel = Disposables.create { timer.value.cancel() }
        timer.value.setEventHandler {
            if cancel.isDisposed { return }
            current.value = action(current.value)
        }
        timer.value.resume()
        return cancel
    }
}

/// Work scheduled on a queue that may be disposed before or while it runs.
///
/// The action lives here, not in the Dispatch block, so disposing frees what the action
/// captured at once, even while Dispatch still holds the (now empty) block until its deadline
/// or cancellation is processed.
final class ScheduledWork: Cancelable, @unchecked Sendable {
    // @unchecked: all mutable state is in `state`.
    typealias Action = @Sendable () -> any Disposable

    private struct State {
        var isDisposed = false
        var action: Action?
        var inner: (any Disposable)?
        var onDispose: (@Sendable () -> Void)?
    }

    private let state: LockedState<State>

    init(_ action: @escaping Action) {
        state = LockedState(State(action: action))
    }

    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Runs `action` when disposal of this work must also cancel something else (a timer).
    func onDispose(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.onDispose = action
            return false
        }
        if runNow { action() }
    }

    /// Runs the action unless disposed or already run.
    func run() {
        guard
            let action = state.withLock({ state -> Action? in
                defer { state.action = nil }
                return state.isDisposed ? nil : state.action
            })
        else { return }
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
        let (inner, onDispose) = state.withLock { state -> ((any Disposable)?, (@Sendable () -> Void)?) in
            guard !state.isDisposed else { return (nil, nil) }
            state.isDisposed = true
            defer {
                state.action = nil
                state.inner = nil
                state.onDispose = nil
            }
            return (state.inner, state.onDispose)
        }
        onDispose?()
        inner?.dispose()
    }
}

/// A mutable box for state that one serial queue owns.
final class UncheckedBox<Value>: @unchecked Sendable {
    // @unchecked: callers document which serial queue or lock owns `value`.
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

private func deadline(after interval: RxTimeInterval) -> DispatchTime {
    if case .never = interval { return .distantFuture }
    return DispatchTime.now() + DispatchTimeInterval.nanoseconds(max(0, interval.nanoseconds))
}

/// Disposes a disposable on a given scheduler instead of on the thread that calls `dispose()`.
///
/// `dispose()` may be called from any thread; it schedules the disposal on ``scheduler`` and
/// returns. The inner disposable is disposed once, when that scheduled work runs, and
/// ``isDisposed`` becomes `true` at that moment.
///
/// ```swift
/// let disposable = ScheduledDisposable(scheduler: MainScheduler.instance, disposable: subscription)
/// disposable.dispose()   // `subscription` is disposed on the main thread
/// ```
public final class ScheduledDisposable: Cancelable {
    /// The scheduler the inner disposable is disposed on.
    public let scheduler: any ImmediateSchedulerType

    private struct State {
        var disposable: (any Disposable)?
        var isScheduled = false
    }

    private let state: LockedState<State>

    /// Creates a disposable that disposes `disposable` on `scheduler`.
    ///
    /// - Parameters:
    ///   - scheduler: Where the disposal runs.
    ///   - disposable: The disposable to dispose there.
    public init(scheduler: any ImmediateSchedulerType, disposable: any Disposable) {
        self.scheduler = scheduler
        state = LockedState(State(disposable: disposable))
    }

    /// Whether the inner disposable has been disposed (on ``scheduler``).
    public var isDisposed: Bool {
        state.withLock { $0.disposable == nil }
    }

    /// Schedules the disposal of the inner disposable on ``scheduler``. Only the first call
    /// schedules anything.
    public func dispose() {
        let schedule = state.withLock { state -> Bool in
            defer { state.isScheduled = true }
            return !state.isScheduled
        }
        guard schedule else { return }
        _ = scheduler.schedule(self) { scheduled in
            scheduled.disposeInner()
            return Disposables.create()
        }
    }

    private func disposeInner() {
        state.withLock { $0.disposable.take() }?.dispose()
    }
}

extension ImmediateSchedulerType {
    /// Schedules `action` repeatedly: each run gets a `recurse` function that schedules the
    /// next run with a new state. Disposing the result stops the recursion.
    ///
    /// - Parameters:
    ///   - state: Passed to the first run.
    ///   - action: Does one step; calls `recurse` to schedule another.
    /// - Returns: A disposable that cancels pending and future runs.
    public func scheduleRecursive<State: Sendable>(
        _ state: State,
        action: @escaping @Sendable (_ state: State, _ recurse: (State) -> Void) -> Void
    ) -> any Disposable {
        let recursion = RecursiveSchedule(scheduler: self, action: action)
        recursion.schedule(state)
        return recursion
    }
}

extension SchedulerType {
    /// Schedules `action` repeatedly with a delay: each run gets a `recurse` function that
    /// schedules the next run after the given time.
    ///
    /// - Parameters:
    ///   - state: Passed to the first run.
    ///   - dueTime: Delay before the first run.
    ///   - action: Does one step; calls `recurse(state, dueTime)` to schedule another.
    /// - Returns: A disposable that cancels pending and future runs.
    public func scheduleRecursive<State: Sendable>(
        _ state: State,
        dueTime: RxTimeInterval,
        action: @escaping @Sendable (_ state: State, _ recurse: (State, RxTimeInterval) -> Void) -> Void
    ) -> any Disposable {
        let recursion = RecursiveScheduleAfter(scheduler: self, action: action)
        recursion.schedule(state, after: dueTime)
        return recursion
    }
}

/// Keeps the pending run of a recursive schedule so that disposal cancels it.
private final class RecursiveSchedule<State: Sendable>: Disposable {
    typealias Action = @Sendable (State, (State) -> Void) -> Void

    private let scheduler: any ImmediateSchedulerType
    private let action: Action
    private let pending = CompositeDisposable()

    init(scheduler: any ImmediateSchedulerType, action: @escaping Action) {
        self.scheduler = scheduler
        self.action = action
    }

    func schedule(_ state: State) {
        let slot = SingleAssignmentDisposable()
        guard let key = pending.insert(slot) else { return }
        slot.setDisposable(
            scheduler.schedule(state) { [self] state in
                pending.remove(for: key)
                if !pending.isDisposed {
                    action(state) { self.schedule($0) }
                }
                return Disposables.create()
            }
        )
    }

    func dispose() {
        pending.dispose()
    }
}

/// Keeps the pending delayed run of a recursive schedule so that disposal cancels it.
private final class RecursiveScheduleAfter<State: Sendable>: Disposable {
    typealias Action = @Sendable (State, (State, RxTimeInterval) -> Void) -> Void

    private let scheduler: any SchedulerType
    private let action: Action
    private let pending = CompositeDisposable()

    init(scheduler: any SchedulerType, action: @escaping Action) {
        self.scheduler = scheduler
        self.action = action
    }

    func schedule(_ state: State, after dueTime: RxTimeInterval) {
        let slot = SingleAssignmentDisposable()
        guard let key = pending.insert(slot) else { return }
        slot.setDisposable(
            scheduler.scheduleRelative(state, dueTime: dueTime) { [self] state in
                pending.remove(for: key)
                if !pending.isDisposed {
                    action(state) { self.schedule($0, after: $1) }
                }
                return Disposables.create()
            }
        )
    }

    func dispose() {
        pending.dispose()
    }
}

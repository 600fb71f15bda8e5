import Foundation
import TellerRx

/// Counts the work scheduled on the schedulers that share it, so a test can wait until nothing
/// is scheduled any more: no delivery, fetch, save, delay or timeout is pending anywhere. Work
/// counts from the moment it is scheduled until its action returned or it was disposed first.
package final class WorkCounter: @unchecked Sendable {
    // @unchecked: `pending` is only reached under `condition`.
    private let condition = NSCondition()
    private var pending = 0

    package init() {}

    fileprivate func begin() {
        condition.lock()
        pending += 1
        condition.unlock()
    }

    fileprivate func end() {
        condition.lock()
        pending -= 1
        if pending == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Waits until no work is pending; `false` if some still was after `seconds`.
    package func waitUntilIdle(seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while pending > 0 {
            if !condition.wait(until: deadline) { return pending == 0 }
        }
        return true
    }
}

/// A scheduler that runs its work on `base` and counts it in a ``WorkCounter``.
package struct WorkCountingScheduler: SchedulerType {
    package let base: any SchedulerType
    package let counter: WorkCounter

    package init(_ base: any SchedulerType, counter: WorkCounter) {
        self.base = base
        self.counter = counter
    }

    package var now: RxTime {
        base.now
    }

    package func schedule<StateType: Sendable>(
        _ state: StateType,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let item = CountedWork(counter)
        let scheduled = base.schedule(state) { state in item.run { action(state) } }
        return Disposables.create {
            item.cancel()
            scheduled.dispose()
        }
    }

    package func scheduleRelative<StateType: Sendable>(
        _ state: StateType,
        dueTime: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let item = CountedWork(counter)
        let scheduled = base.scheduleRelative(state, dueTime: dueTime) { state in item.run { action(state) } }
        return Disposables.create {
            item.cancel()
            scheduled.dispose()
        }
    }
}

/// One piece of scheduled work: counted until it ran or was cancelled before running.
private final class CountedWork: @unchecked Sendable {
    // @unchecked: `state` is only reached under `lock`.
    private enum State { case pending, running, over }

    private let lock = NSLock()
    private var state = State.pending
    private let counter: WorkCounter

    init(_ counter: WorkCounter) {
        self.counter = counter
        counter.begin()
    }

    func run(_ action: () -> any Disposable) -> any Disposable {
        let starts = lock.withLock { () -> Bool in
            guard state == .pending else { return false }
            state = .running
            return true
        }
        guard starts else { return Disposables.create() }
        defer {
            lock.withLock { state = .over }
            counter.end()
        }
        return action()
    }

    func cancel() {
        let cancelled = lock.withLock { () -> Bool in
            guard state == .pending else { return false }
            state = .over
            return true
        }
        if cancelled { counter.end() }
    }
}

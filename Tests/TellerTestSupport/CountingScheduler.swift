import Foundation
@_spi(TellerInternals) import TellerRx

/// Counts work scheduled on one or more ``CountingScheduler``s that has not ended yet, so a
/// test with real queues can wait until everything Teller started is over (quiescence) instead
/// of sleeping.
///
/// Work ends when its action returns, or when it is disposed before it ran (a timer that was
/// cancelled never runs). Work an action schedules is counted before the action ends, so the
/// count only reaches zero once nothing is left to happen.
package final class WorkCounter: @unchecked Sendable {
    // @unchecked: `pending` is only touched under `condition`.
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

    /// Waits until no counted work is pending.
    ///
    /// - Returns: `false` if some still was after `timeout` seconds.
    package func waitUntilIdle(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while pending > 0 {
            if !condition.wait(until: deadline) { return pending == 0 }
        }
        return true
    }
}

/// A scheduler that runs everything on `base` and counts it in `counter` until it ends.
package struct CountingScheduler: SchedulerType {
    private let base: any SchedulerType
    private let counter: WorkCounter

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
        let work = CountedWork(counter)
        let scheduled = base.schedule(state) { state in work.run { action(state) } }
        return Disposables.create {
            work.cancel()
            scheduled.dispose()
        }
    }

    package func scheduleRelative<StateType: Sendable>(
        _ state: StateType,
        dueTime: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let work = CountedWork(counter)
        let scheduled = base.scheduleRelative(state, dueTime: dueTime) { state in work.run { action(state) } }
        return Disposables.create {
            work.cancel()
            scheduled.dispose()
        }
    }
}

/// One piece of counted work: pending, then running, then over; or cancelled while pending.
/// Either way it leaves the count exactly once.
private final class CountedWork: Sendable {
    private enum Phase {
        case pending, running, over
    }

    private let counter: WorkCounter
    private let phase = LockedState(Phase.pending)

    init(_ counter: WorkCounter) {
        self.counter = counter
        counter.begin()
    }

    func run(_ action: () -> any Disposable) -> any Disposable {
        guard transition(from: .pending, to: .running) else { return Disposables.create() }
        let disposable = action()
        if transition(from: .running, to: .over) { counter.end() }
        return disposable
    }

    func cancel() {
        if transition(from: .pending, to: .over) { counter.end() }
    }

    private func transition(from: Phase, to: Phase) -> Bool {
        phase.withLock { phase in
            guard phase == from else { return false }
            phase = to
            return true
        }
    }
}

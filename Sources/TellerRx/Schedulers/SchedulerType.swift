import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A span of time for schedulers and time-based operators, as in RxSwift.
public typealias RxTimeInterval = DispatchTimeInterval

/// A point in time as schedulers see it.
public typealias RxTime = Date

/// Runs work now, in order: the minimal scheduler, used by operators that only need to
/// decide *where* work runs, not *when*.
public protocol ImmediateSchedulerType: Sendable {
    /// Schedules `action` to run as soon as the scheduler allows.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - action: The work; returns a disposable for any work it starts.
    /// - Returns: A disposable that cancels the work if it has not run yet.
    func schedule<StateType: Sendable>(
        _ state: StateType,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable
}

/// A scheduler that can also run work later and periodically, and tells the time.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Schedules `action` to run after `dueTime`.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - dueTime: How long to wait.
    ///   - action: The work; returns a disposable for any work it starts.
    /// - Returns: A disposable that cancels the work if it has not run yet.
    func scheduleRelative<StateType: Sendable>(
        _ state: StateType,
        dueTime: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable

    /// Schedules `action` every `period`, first after `startAfter`, threading its state from
    /// one run to the next.
    ///
    /// - Parameters:
    ///   - state: Passed to the first run.
    ///   - startAfter: Delay before the first run.
    ///   - period: Time between runs.
    ///   - action: Returns the state for the next run.
    /// - Returns: A disposable that stops the runs.
    func schedulePeriodic<StateType: Sendable>(
        _ state: StateType,
        startAfter: RxTimeInterval,
        period: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> StateType
    ) -> any Disposable
}

extension SchedulerType {
    /// Periodic scheduling built from recursive relative scheduling, for schedulers without a
    /// native timer.
    public func schedulePeriodic<StateType: Sendable>(
        _ state: StateType,
        startAfter: RxTimeInterval,
        period: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> StateType
    ) -> any Disposable {
        let serial = SerialDisposable()
        @Sendable func tick(_ state: StateType) -> any Disposable {
            let next = action(state)
            if !serial.isDisposed {
                serial.disposable = scheduleRelative(next, dueTime: period, action: tick)
            }
            return Disposables.create()
        }
        serial.disposable = scheduleRelative(state, dueTime: startAfter, action: tick)
        return serial
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds (`.never` is infinity).
    var seconds: Double {
        switch self {
        case .seconds(let value): Double(value)
        case .milliseconds(let value): Double(value) / 1_000
        case .microseconds(let value): Double(value) / 1_000_000
        case .nanoseconds(let value): Double(value) / 1_000_000_000
        case .never: .infinity
        @unknown default: .infinity
        }
    }

    /// The interval in nanoseconds, saturating.
    var nanoseconds: Int {
        switch self {
        case .seconds(let value): value.multipliedReportingOverflow(by: 1_000_000_000).partialValue
        case .milliseconds(let value): value.multipliedReportingOverflow(by: 1_000_000).partialValue
        case .microseconds(let value): value.multipliedReportingOverflow(by: 1_000).partialValue
        case .nanoseconds(let value): value
        case .never: .max
        @unknown default: .max
        }
    }
}

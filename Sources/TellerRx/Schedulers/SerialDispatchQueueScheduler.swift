import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs work serially on a Dispatch queue: one action at a time, in the order scheduled.
///
/// `observe(on:)` with this scheduler delivers events in order on the queue. Use it to move
/// work off the caller's thread, or `init(queue:…)` to target a queue you own.
public class SerialDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
    // @unchecked: immutable; non-final so MainScheduler can refine it.
    let configuration: DispatchQueueConfiguration

    /// Creates a scheduler on a new serial queue.
    ///
    /// - Parameters:
    ///   - internalSerialQueueName: The label of the new queue.
    ///   - qos: The quality of service of the new queue.
    ///   - leeway: How much timers may be deferred to save power.
    public init(
        internalSerialQueueName: String,
        qos: DispatchQoS = .default,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        configuration = DispatchQueueConfiguration(
            queue: DispatchQueue(label: internalSerialQueueName, qos: qos),
            leeway: leeway,
            drainsItself: true
        )
    }

    /// Creates a scheduler on a new serial queue with the given quality of service.
    ///
    /// - Parameters:
    ///   - qos: The quality of service of the new queue.
    ///   - internalSerialQueueName: The label of the new queue.
    ///   - leeway: How much timers may be deferred to save power.
    public convenience init(
        qos: DispatchQoS,
        internalSerialQueueName: String = "teller.rx.serial",
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        self.init(internalSerialQueueName: internalSerialQueueName, qos: qos, leeway: leeway)
    }

    /// Creates a scheduler that targets `queue` through a new serial queue, so work runs
    /// serially even when `queue` is concurrent.
    ///
    /// - Parameters:
    ///   - queue: The queue the work ultimately runs on.
    ///   - internalSerialQueueName: The label of the serial queue in front of it.
    ///   - leeway: How much timers may be deferred to save power.
    public convenience init(
        queue: DispatchQueue,
        internalSerialQueueName: String,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        self.init(serialQueue: DispatchQueue(label: internalSerialQueueName, target: queue), leeway: leeway)
    }

    init(serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: serialQueue, leeway: leeway, drainsItself: false)
    }

    /// The wall-clock time.
    public var now: RxTime {
        Date()
    }

    /// Schedules `action` asynchronously on the queue.
    public func schedule<StateType: Sendable>(
        _ state: StateType,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        configuration.schedule(state, action: action)
    }

    /// Schedules `action` on the queue after `dueTime`.
    public func scheduleRelative<StateType: Sendable>(
        _ state: StateType,
        dueTime: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` on the queue every `period`, first after `startAfter`.
    public func schedulePeriodic<StateType: Sendable>(
        _ state: StateType,
        startAfter: RxTimeInterval,
        period: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> StateType
    ) -> any Disposable {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}

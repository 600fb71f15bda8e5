import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs work on a concurrent Dispatch queue: separate actions may run at the same time.
///
/// Use it for background work (`subscribe(on:)` a fetch, say). Operators that deliver on a
/// scheduler still deliver one event at a time to each observer.
public final class ConcurrentDispatchQueueScheduler: SchedulerType {
    let configuration: DispatchQueueConfiguration

    /// Creates a scheduler on `queue`.
    ///
    /// - Parameters:
    ///   - queue: The queue work runs on.
    ///   - leeway: How much timers may be deferred to save power.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway, drainsItself: false)
    }

    /// Creates a scheduler on a new concurrent queue with quality of service `qos`.
    ///
    /// - Parameters:
    ///   - qos: The quality of service of the new queue.
    ///   - leeway: How much timers may be deferred to save power.
    public init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(
            queue: DispatchQueue(label: queueLabel(for: qos.qosClass), qos: qos, attributes: .concurrent),
            leeway: leeway,
            drainsItself: true
        )
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

/// The label of a queue a scheduler makes for `qos`. Spelled out: interpolating the enum would
/// describe it through reflection, which costs more than the rest of making the scheduler.
private func queueLabel(for qos: DispatchQoS.QoSClass) -> String {
    switch qos {
    case .background: "teller.rx.concurrent.background"
    case .utility: "teller.rx.concurrent.utility"
    case .default: "teller.rx.concurrent.default"
    case .userInitiated: "teller.rx.concurrent.userInitiated"
    case .userInteractive: "teller.rx.concurrent.userInteractive"
    case .unspecified: "teller.rx.concurrent.unspecified"
    @unknown default: "teller.rx.concurrent"
    }
}

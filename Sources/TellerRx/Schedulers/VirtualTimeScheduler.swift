import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Converts between a virtual time scheduler's own clock units and real time.
public protocol VirtualTimeConverterType: Sendable {
    /// The type of an absolute virtual time.
    associatedtype VirtualTimeUnit: Sendable
    /// The type of a virtual time span.
    associatedtype VirtualTimeIntervalUnit: Sendable

    /// Converts a virtual time to a date.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// Converts a date to a virtual time.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// Converts a virtual span to seconds.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> Double
    /// Converts a real span to a virtual span.
    func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval) -> VirtualTimeIntervalUnit
    /// Adds a virtual span to a virtual time.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// Orders two virtual times.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The order of two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// The left time is earlier.
    case lessThan
    /// The times are equal.
    case equal
    /// The left time is later.
    case greaterThan
}

/// A scheduler whose clock moves only when told to: work runs in order of its virtual due
/// time (then of scheduling), instantly, on the thread that calls ``start()`` or
/// ``advanceTo(_:)``. The base of TellerTesting's `TestScheduler`.
///
/// Thread safety: scheduling is safe from any thread; run it from one thread at a time.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType, @unchecked Sendable {
    // @unchecked: all mutable state is in `state`; `converter` is immutable.
    /// An absolute time on this scheduler's clock.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// A span on this scheduler's clock.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private struct State {
        var clock: VirtualTime
        var isRunning = false
        var nextID = 0
        var queue: [VirtualSchedulerItem<VirtualTime>] = []
    }

    private let state: LockedState<State>
    private let converter: Converter

    /// Creates a scheduler whose clock starts at `initialClock`.
    ///
    /// - Parameters:
    ///   - initialClock: The starting virtual time.
    ///   - converter: Converts between virtual and real time.
    public init(initialClock: VirtualTime, converter: Converter) {
        state = LockedState(State(clock: initialClock))
        self.converter = converter
    }

    /// The current virtual time.
    public var clock: VirtualTime {
        state.withLock { $0.clock }
    }

    /// The current virtual time as a date.
    public var now: RxTime {
        converter.convertFromVirtualTime(clock)
    }

    /// Whether the scheduler is running work now.
    public var isRunning: Bool {
        state.withLock { $0.isRunning }
    }

    /// Schedules `action` at the current virtual time (adjusted by ``adjustScheduledTime(_:)``).
    public func schedule<StateType: Sendable>(
        _ state: StateType,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        scheduleRelative(state, dueTime: .nanoseconds(0), action: action)
    }

    /// Schedules `action` after the real span `dueTime`, converted to virtual time and adjusted
    /// by ``adjustScheduledTime(_:)``.
    public func scheduleRelative<StateType: Sendable>(
        _ state: StateType,
        dueTime: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let time = converter.offsetVirtualTime(clock, offset: converter.convertToVirtualTimeInterval(dueTime))
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
    }

    /// Schedules `action` after the virtual span `dueTime`, not adjusted.
    ///
    /// - Returns: A disposable that cancels the action if it has not run.
    public func scheduleRelativeVirtual<StateType: Sendable>(
        _ state: StateType,
        dueTime: VirtualTimeInterval,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        scheduleAbsoluteVirtual(state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
    }

    /// Schedules `action` at the absolute virtual time `time`.
    ///
    /// - Returns: A disposable that cancels the action if it has not run.
    public func scheduleAbsoluteVirtual<StateType: Sendable>(
        _ state: StateType,
        time: VirtualTime,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let converter = self.converter
        return self.state.withLock { scheduler in
            let item = VirtualSchedulerItem(time: time, id: scheduler.nextID) { action(state) }
            scheduler.nextID += 1
            // Insert after every item due at or before `time`: equal times run in scheduling order.
            let index =
                scheduler.queue.firstIndex { converter.compareVirtualTime($0.time, time) == .greaterThan }
                ?? scheduler.queue.endIndex
            scheduler.queue.insert(item, at: index)
            return item
        }
    }

    /// Adjusts the due time of work scheduled through ``schedule(_:action:)`` and
    /// ``scheduleRelative(_:dueTime:action:)``. The base returns `time` unchanged.
    ///
    /// - Parameter time: The requested due time.
    /// - Returns: The due time to use.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Runs all scheduled work, moving the clock forward to each item's due time, until none
    /// is left or ``stop()`` is called.
    public func start() {
        run(until: nil)
    }

    /// Runs the work due up to `virtualTime`, then sets the clock to `virtualTime`.
    ///
    /// - Parameter virtualTime: The time to advance to.
    public func advanceTo(_ virtualTime: VirtualTime) {
        // A nested call is ignored entirely: it must not move the clock under the running item.
        guard run(until: virtualTime) else { return }
        state.withLock { state in
            if converter.compareVirtualTime(virtualTime, state.clock) == .greaterThan {
                state.clock = virtualTime
            }
        }
    }

    /// Moves the clock forward by `virtualInterval` without running any work.
    ///
    /// - Parameter virtualInterval: How far to move the clock.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        state.withLock { state in
            state.clock = converter.offsetVirtualTime(state.clock, offset: virtualInterval)
        }
    }

    /// Stops ``start()`` or ``advanceTo(_:)`` after the item running now.
    public func stop() {
        state.withLock { $0.isRunning = false }
    }

    /// Runs due work; returns `false` (doing nothing) when called while already running.
    @discardableResult
    private func run(until limit: VirtualTime?) -> Bool {
        let alreadyRunning = state.withLock { state -> Bool in
            defer { state.isRunning = true }
            return state.isRunning
        }
        if alreadyRunning {
            reportMisuse("VirtualTimeScheduler is already running; nested start()/advanceTo() ignored.")
            return false
        }
        while let item = nextItem(until: limit) {
            item.invoke()
        }
        state.withLock { $0.isRunning = false }
        return true
    }

    private func nextItem(until limit: VirtualTime?) -> VirtualSchedulerItem<VirtualTime>? {
        state.withLock { state in
            guard state.isRunning else { return nil }
            while let first = state.queue.first {
                if first.isDisposed {
                    state.queue.removeFirst()
                    continue
                }
                if let limit, converter.compareVirtualTime(first.time, limit) == .greaterThan {
                    return nil
                }
                state.queue.removeFirst()
                if converter.compareVirtualTime(first.time, state.clock) == .greaterThan {
                    state.clock = first.time
                }
                return first
            }
            return nil
        }
    }
}

/// One piece of work on a virtual time scheduler.
final class VirtualSchedulerItem<Time: Sendable>: Cancelable, @unchecked Sendable {
    // @unchecked: `action` is immutable; `disposable` is thread-safe.
    let time: Time
    let id: Int
    private let action: () -> any Disposable
    private let disposable = SingleAssignmentDisposable()

    init(time: Time, id: Int, action: @escaping () -> any Disposable) {
        self.time = time
        self.id = id
        self.action = action
    }

    var isDisposed: Bool {
        disposable.isDisposed
    }

    func invoke() {
        disposable.setDisposable(action())
    }

    func dispose() {
        disposable.dispose()
    }
}

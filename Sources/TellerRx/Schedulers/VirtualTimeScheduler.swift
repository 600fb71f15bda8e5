import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Converts between a virtual time scheduler's own clock units and real time, with RxSwift's
/// member signatures: absolute times convert to and from `Date` (``RxTime``), spans to and from
/// seconds (`TimeInterval`).
///
/// ``VirtualTimeScheduler`` calls these on whichever thread schedules or runs work, so a
/// converter must be `Sendable` (usually an immutable struct).
public protocol VirtualTimeConverterType: Sendable {
    /// The type of an absolute virtual time (the ticks of the virtual clock).
    associatedtype VirtualTimeUnit: Sendable
    /// The type of a virtual time span (a difference between two virtual times).
    associatedtype VirtualTimeIntervalUnit: Sendable

    /// Converts a virtual time to a date.
    ///
    /// - Parameter virtualTime: The virtual time.
    /// - Returns: The date it stands for.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime

    /// Converts a date to a virtual time.
    ///
    /// - Parameter time: The date.
    /// - Returns: The virtual time it stands for.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit

    /// Converts a virtual span to seconds.
    ///
    /// - Parameter virtualTimeInterval: The virtual span.
    /// - Returns: The span in seconds.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval

    /// Converts a span in seconds to a virtual span.
    ///
    /// ``VirtualTimeScheduler`` passes `.infinity` for `RxTimeInterval.never`; return the
    /// largest span your unit has.
    ///
    /// - Parameter timeInterval: The span in seconds.
    /// - Returns: The virtual span.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit

    /// Adds a virtual span to a virtual time.
    ///
    /// - Parameters:
    ///   - time: The virtual time.
    ///   - offset: The virtual span to add.
    /// - Returns: The later (or, for a negative span, earlier) virtual time.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit

    /// Orders two virtual times (a separate requirement because `Date` and other time types
    /// need not be `Comparable` in the way the scheduler needs).
    ///
    /// - Parameters:
    ///   - lhs: The first virtual time.
    ///   - rhs: The second virtual time.
    /// - Returns: Whether `lhs` is earlier than, equal to or later than `rhs`.
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
        /// Ordered by due time, then by scheduling order (see `isBefore`).
        var queue = BinaryHeap<VirtualSchedulerItem<VirtualTime>>()
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

    /// Schedules `action` after the real span `dueTime`, converted to virtual time (through
    /// seconds, with the converter's `convertToVirtualTimeInterval(_:)`) and adjusted by
    /// ``adjustScheduledTime(_:)``.
    public func scheduleRelative<StateType: Sendable>(
        _ state: StateType,
        dueTime: RxTimeInterval,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let time = converter.offsetVirtualTime(clock, offset: converter.convertToVirtualTimeInterval(dueTime.seconds))
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
        self.state.withLock { scheduler in
            let item = VirtualSchedulerItem(time: time, id: scheduler.nextID) { action(state) }
            scheduler.nextID += 1
            scheduler.queue.insert(item, by: isBefore)
            return item
        }
    }

    /// The queue's order: earlier due time first, and for equal times the item scheduled first
    /// (its `id` is smaller), so equal times run in scheduling order.
    private func isBefore(_ lhs: VirtualSchedulerItem<VirtualTime>, _ rhs: VirtualSchedulerItem<VirtualTime>) -> Bool {
        switch converter.compareVirtualTime(lhs.time, rhs.time) {
        case .lessThan: true
        case .greaterThan: false
        case .equal: lhs.id < rhs.id
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
                    _ = state.queue.removeFirst(by: isBefore)
                    continue
                }
                if let limit, converter.compareVirtualTime(first.time, limit) == .greaterThan {
                    return nil
                }
                _ = state.queue.removeFirst(by: isBefore)
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

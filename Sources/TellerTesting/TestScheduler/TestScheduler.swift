import Dispatch
@_spi(TellerInternals) import TellerRx

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A virtual-time scheduler for marble tests, with RxTest's names and semantics.
///
/// Time is counted in integer ticks. One tick stands for `resolution` seconds when operators
/// convert their real intervals (`.seconds(10)` is 10 ticks by default). Work scheduled "now"
/// runs one tick later when `simulateProcessingDelay` is on (the default, as in RxTest), so
/// a hop through the scheduler shows in the recorded times.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
/// let res = scheduler.start { xs.map { $0 * 10 } }
/// // res.events == [.next(210, 20), .completed(300)]
/// // xs.subscriptions == [Subscription(200, 300)]
/// ```
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>, @unchecked Sendable {
    // @unchecked: immutable beyond the base class's locked state.
    /// Default virtual times used by ``start(created:subscribed:disposed:create:)``.
    public enum Defaults {
        /// When the observable is created: 100.
        public static let created = 100
        /// When it is subscribed to: 200.
        public static let subscribed = 200
        /// When the subscription is disposed: 1000.
        public static let disposed = 1000
    }

    private let simulateProcessingDelay: Bool

    /// Creates a test scheduler.
    ///
    /// - Parameters:
    ///   - initialClock: The starting virtual time.
    ///   - resolution: Seconds per tick when converting real intervals.
    ///   - simulateProcessingDelay: Whether work scheduled for "now" runs one tick later.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// Runs `action` at the absolute virtual time `time`.
    ///
    /// - Parameters:
    ///   - time: When to run it.
    ///   - action: The work, run on the thread driving the scheduler.
    public func scheduleAt(_ time: TestTime, action: @escaping @Sendable () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    /// Work due at or before now moves to one tick after now (or to now without simulated delay).
    public override func adjustScheduledTime(_ time: TestTime) -> TestTime {
        let clock = self.clock
        return time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// Creates a hot observable: it sends `events` at their absolute times to whoever is
    /// subscribed at that moment.
    ///
    /// - Parameter events: The events and their absolute times.
    /// - Returns: The observable, with its subscription log.
    public func createHotObservable<Element: Sendable>(
        _ events: [Recorded<Event<Element>>]
    ) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// Creates a cold observable: each subscriber gets `events` at their times relative to
    /// when it subscribed.
    ///
    /// - Parameter events: The events and their times relative to subscription.
    /// - Returns: The observable, with its subscription log.
    public func createColdObservable<Element: Sendable>(
        _ events: [Recorded<Event<Element>>]
    ) -> TestableObservable<Element> {
        ColdObservable(testScheduler: self, recordedEvents: events)
    }

    /// Creates an observer that records what it receives with virtual times.
    ///
    /// - Parameter type: The element type.
    /// - Returns: A recording observer.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Creates the observable with `create` at `created`, subscribes to it at `subscribed`,
    /// disposes the subscription at `disposed`, and runs the scheduler to the end.
    ///
    /// - Parameters:
    ///   - created: When `create` is called.
    ///   - subscribed: When the subscription is made.
    ///   - disposed: When it is disposed.
    ///   - create: Builds the observable under test.
    /// - Returns: The observer that recorded the events.
    public func start<Output: ObservableConvertibleType>(
        created: TestTime,
        subscribed: TestTime,
        disposed: TestTime,
        create: @escaping @Sendable () -> Output
    ) -> TestableObserver<Output.Element> {
        let source = LockedState<Observable<Output.Element>?>(nil)
        let subscription = LockedState<(any Disposable)?>(nil)
        let observer = createObserver(Output.Element.self)
        scheduleAt(created) {
            let created = create().asObservable()
            source.withLock { $0 = created }
        }
        scheduleAt(subscribed) {
            guard let created = source.withLock({ $0 }) else { return }
            let disposable = created.subscribe(observer)
            subscription.withLock { $0 = disposable }
        }
        scheduleAt(disposed) {
            subscription.withLock { $0 }?.dispose()
        }
        start()
        return observer
    }

    /// ``start(created:subscribed:disposed:create:)`` creating at 100 and subscribing at 200.
    ///
    /// - Parameters:
    ///   - disposed: When the subscription is disposed.
    ///   - create: Builds the observable under test.
    /// - Returns: The observer that recorded the events.
    public func start<Output: ObservableConvertibleType>(
        disposed: TestTime,
        create: @escaping @Sendable () -> Output
    ) -> TestableObserver<Output.Element> {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// ``start(created:subscribed:disposed:create:)`` with the defaults: created at 100,
    /// subscribed at 200, disposed at 1000.
    ///
    /// - Parameter create: Builds the observable under test.
    /// - Returns: The observer that recorded the events.
    public func start<Output: ObservableConvertibleType>(
        _ create: @escaping @Sendable () -> Output
    ) -> TestableObserver<Output.Element> {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }
}

/// Converts between ``TestScheduler`` ticks and real time: a tick is `resolution` seconds.
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType {
    /// Seconds per tick.
    public let resolution: Double

    init(resolution: Double) {
        self.resolution = resolution
    }

    /// The date `virtualTime` ticks after the reference date.
    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: Double(virtualTime) * resolution)
    }

    /// The tick of `time`.
    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Int((time.timeIntervalSince1970 / resolution).rounded())
    }

    /// The seconds of `virtualTimeInterval` ticks.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        TimeInterval(virtualTimeInterval) * resolution
    }

    /// The ticks of a span in seconds, rounded to the nearest tick (saturating; infinity, which
    /// stands for `RxTimeInterval.never`, is `Int.max`).
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        let ticks = (timeInterval / resolution).rounded()
        guard ticks.isFinite else { return ticks < 0 ? .min : .max }
        guard ticks < Double(Int.max) else { return .max }
        guard ticks > Double(Int.min) else { return .min }
        return Int(ticks)
    }

    /// `time` plus `offset`, saturating.
    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        let (sum, overflow) = time.addingReportingOverflow(offset)
        return overflow ? .max : sum
    }

    /// Orders two tick counts.
    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}

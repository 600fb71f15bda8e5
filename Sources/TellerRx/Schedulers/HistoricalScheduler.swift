#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A virtual time scheduler whose clock is a `Date` and whose spans are seconds
/// (`TimeInterval`): for replaying or simulating work against a calendar, such as historical
/// data, without waiting.
///
/// Like every ``VirtualTimeScheduler``, its clock moves only when ``VirtualTimeScheduler/start()``
/// or ``VirtualTimeScheduler/advanceTo(_:)`` runs the work due, instantly, on the calling
/// thread. Unlike TellerTesting's `TestScheduler`, work scheduled for "now" runs at the current
/// time, with no simulated processing delay.
///
/// ```swift
/// let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
/// _ = Observable<Int>.timer(.seconds(60), scheduler: scheduler)
///     .subscribe(onNext: { _ in print(scheduler.now.timeIntervalSince1970) })
/// scheduler.start()
/// // Prints: 60.0
/// ```
public final class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>, @unchecked Sendable {
    // @unchecked: no state beyond the base class's locked state.

    /// Creates a historical scheduler whose clock starts at `initialClock`.
    ///
    /// - Parameter initialClock: The starting date; the Unix epoch by default, as in RxSwift.
    public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}

/// The converter of ``HistoricalScheduler``: virtual time is already a `Date` and spans are
/// already seconds, so the conversions return their argument.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType {
    /// An absolute virtual time: a date.
    public typealias VirtualTimeUnit = RxTime
    /// A virtual span: seconds.
    public typealias VirtualTimeIntervalUnit = TimeInterval

    /// Creates the converter.
    public init() {}

    /// Returns `virtualTime`: historical time is real time, decoupled from the machine's clock.
    ///
    /// - Parameter virtualTime: The virtual time.
    /// - Returns: The same date.
    public func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime {
        virtualTime
    }

    /// Returns `time`: historical time is real time, decoupled from the machine's clock.
    ///
    /// - Parameter time: The date.
    /// - Returns: The same date.
    public func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit {
        time
    }

    /// Returns `virtualTimeInterval`: historical spans are seconds.
    ///
    /// - Parameter virtualTimeInterval: The span.
    /// - Returns: The same span.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval {
        virtualTimeInterval
    }

    /// Returns `timeInterval`: historical spans are seconds.
    ///
    /// - Parameter timeInterval: The span.
    /// - Returns: The same span.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit {
        timeInterval
    }

    /// `time` moved by `offset` seconds.
    ///
    /// - Parameters:
    ///   - time: The date.
    ///   - offset: The seconds to add.
    /// - Returns: The moved date (`Date.distantFuture` for an infinite offset).
    public func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit {
        offset.isFinite ? time.addingTimeInterval(offset) : (offset > 0 ? .distantFuture : .distantPast)
    }

    /// Orders two dates.
    ///
    /// - Parameters:
    ///   - lhs: The first date.
    ///   - rhs: The second date.
    /// - Returns: Whether `lhs` is earlier than, equal to or later than `rhs`.
    public func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}

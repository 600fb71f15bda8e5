import Foundation

/// A length of time in calendar units, such as "5 hours": how old a cache may get before
/// Teller refreshes it (``TellerDataSource/maxAgeOfCache``).
///
/// ```swift
/// var maxAgeOfCache = Period(unit: 5, component: .hour)
/// ```
public struct Period: Sendable, Hashable, CustomStringConvertible {
    /// How many `component`s long the period is.
    public let unit: Int
    /// The calendar unit, such as `.minute`, `.hour` or `.day`.
    public let component: Calendar.Component

    /// Creates a period of `unit` times `component`.
    ///
    /// - Parameters:
    ///   - unit: How many components; 0 or less means every cache is already too old.
    ///   - component: The calendar unit.
    public init(unit: Int, component: Calendar.Component) {
        self.unit = unit
        self.component = component
    }

    /// A description such as "5 hour".
    public var description: String {
        "\(unit) \(component)"
    }

    /// The date `unit` `component`s before `date`, in the Gregorian calendar in UTC so the
    /// answer does not depend on the device's settings.
    ///
    /// - Parameter date: The reference date, usually now.
    /// - Returns: The earliest fetch date that is not yet too old.
    public func date(before date: Date) -> Date {
        Period.calendar.date(byAdding: component, value: -unit, to: date) ?? .distantPast
    }

    /// The date this period ago, as Teller-iOS's `toDate()`: `unit` `component`s before the
    /// system clock's now (``date(before:)`` with `Date()`). A cache fetched before it is too old.
    ///
    /// It reads the system clock, not a `Teller`'s injectable clock: in code that runs on a
    /// `Teller`, use `date(before: teller.now)`.
    ///
    /// - Returns: The earliest fetch date that is not yet too old now.
    public func toDate() -> Date {
        date(before: Date())
    }

    /// Whether a cache fetched at `lastFetched` is older than this period at `now`.
    ///
    /// A `lastFetched` later than `now` counts as too old: the clock was moved back (or the
    /// time was stored by a device with another clock), and trusting it would keep the cache
    /// fresh until the clock caught up.
    ///
    /// - Parameters:
    ///   - lastFetched: When the cache was last fetched successfully.
    ///   - now: The current time.
    /// - Returns: `true` if the cache should be refreshed.
    public func isTooOld(lastFetched: Date, now: Date) -> Bool {
        lastFetched > now || lastFetched <= date(before: now)
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
}

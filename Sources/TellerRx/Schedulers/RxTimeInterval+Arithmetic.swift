import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DispatchTimeInterval {
    /// An interval of `seconds` (rounded up to whole nanoseconds, clamped to be non-negative);
    /// spans too long to count in nanoseconds become `.never`.
    static func clamped(seconds: Double) -> DispatchTimeInterval {
        if seconds.isNaN || seconds <= 0 { return .nanoseconds(0) }
        let nanoseconds = (seconds * 1_000_000_000).rounded(.up)
        guard nanoseconds < Double(Int.max) else { return .never }
        return .nanoseconds(Int(nanoseconds))
    }

    /// This interval minus the time from `earlier` to `later`, never below zero: what is left
    /// of a wait that started at `earlier`, seen at `later`.
    func remaining(from earlier: Date, to later: Date) -> DispatchTimeInterval {
        if case .never = self { return .never }
        return .clamped(seconds: seconds - later.timeIntervalSince(earlier))
    }

    /// Whether this interval is zero or less (nothing left to wait).
    var isNow: Bool {
        if case .never = self { return false }
        return nanoseconds <= 0
    }
}

import Foundation

/// A refresh whose fetch failed and that waits to try again, as its ``RetryPolicy`` says: what
/// ``CacheState/pendingRetry`` shows while the delay runs.
public struct PendingRetry: Sendable, CustomStringConvertible {
    /// How many attempts of this refresh failed so far (1 after the first fetch failed).
    public let failedAttempts: Int
    /// The error of the last failed attempt.
    public let lastError: any Error
    /// When the next attempt starts, by the ``Teller``'s clock.
    public let nextAttemptAt: Date

    /// Creates a pending retry. Teller builds these; apps build them in tests.
    ///
    /// - Parameters:
    ///   - failedAttempts: How many attempts failed so far.
    ///   - lastError: The error of the last failed attempt.
    ///   - nextAttemptAt: When the next attempt starts.
    public init(failedAttempts: Int, lastError: any Error, nextAttemptAt: Date) {
        self.failedAttempts = failedAttempts
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
    }

    /// A summary such as `retry after 2 failed attempts at 2026-…: timeout`.
    public var description: String {
        "retry after \(failedAttempts) failed attempt\(failedAttempts == 1 ? "" : "s") at \(nextAttemptAt): \(lastError)"
    }
}

extension PendingRetry: Equatable {
    /// Pending retries are equal when their counts and times are, and their errors have the
    /// same type and description.
    public static func == (lhs: PendingRetry, rhs: PendingRetry) -> Bool {
        lhs.failedAttempts == rhs.failedAttempts && lhs.nextAttemptAt == rhs.nextAttemptAt
            && sameError(lhs.lastError, rhs.lastError)
    }
}

import Foundation
import TellerRx

/// How Teller tries a failed fetch again: how many times, after which delays, and for which
/// errors. Opt-in: a ``Teller`` retries nothing unless given a policy, and a data source may
/// override the Teller's policy with its own ``TellerDataSource/retryPolicy``.
///
/// Delays grow exponentially: the first retry waits ``initialDelay``, each later one
/// ``multiplier`` times longer, never longer than ``maxDelay``. ``jitter`` shortens each delay
/// by a random fraction of it, so many devices that failed together do not all retry at the
/// same instant.
///
/// ```swift
/// let teller = Teller(retryPolicy: .standard)   // 3 retries after 1 s, 2 s and 4 s
/// let patient = try RetryPolicy(maxRetries: 5, initialDelay: .milliseconds(500), maxDelay: .seconds(10))
/// ```
///
/// Retries belong to one refresh: every caller that joined the fetch waits through them and
/// gets one result at the end, observers see ``CacheState/pendingRetry`` while a retry waits,
/// and the delays run on the Teller's background scheduler (so tests play them out on virtual
/// time). Only fetches are retried: a fetch that fails (a `.failure` response, a failed
/// `Single`, a timeout) is tried again; a ``RepositoryDataSource/saveCache(_:requirements:)`` that
/// throws is not, as a full disk or a broken database does not heal in seconds. A pending retry
/// is cancelled when nobody waits for the refresh any more: its last caller disposed its
/// `Single`, the requirements changed, or the repository was released.
public struct RetryPolicy: Sendable, CustomStringConvertible {
    /// How many times a failed fetch is tried again; 0 never retries.
    public let maxRetries: Int
    /// The delay before the first retry.
    public let initialDelay: RxTimeInterval
    /// How much longer each delay is than the one before (2 doubles it).
    public let multiplier: Double
    /// The longest delay, whatever the multiplier says.
    public let maxDelay: RxTimeInterval
    /// The largest fraction, from 0 to 1, by which each delay is shortened at random.
    public let jitter: Double
    private let retryable: @Sendable (any Error) -> Bool

    /// Never retries: a failed fetch fails at once. The default of a ``Teller``.
    public static let never = RetryPolicy(
        validated: 0,
        initialDelay: .seconds(1),
        multiplier: 2,
        maxDelay: .seconds(30),
        jitter: 0,
        retryable: { _ in false }
    )

    /// Three retries after 1, 2 and 4 seconds (doubling up to 30 s), every fetch error, 10%
    /// jitter: the defaults of TanStack Query, with a little jitter.
    public static let standard = RetryPolicy(
        validated: 3,
        initialDelay: .seconds(1),
        multiplier: 2,
        maxDelay: .seconds(30),
        jitter: 0.1,
        retryable: { _ in true }
    )

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxRetries: How many times a failed fetch is tried again (0 or more).
    ///   - initialDelay: The delay before the first retry (0 or more).
    ///   - multiplier: How much longer each delay is than the one before (1 or more).
    ///   - maxDelay: The longest delay (at least `initialDelay`).
    ///   - jitter: The largest fraction, from 0 to 1, by which a delay is shortened at random;
    ///     0 gives exact delays.
    ///   - isRetryable: Whether a fetch that failed with this error is tried again; every error
    ///     is by default. Called on the background scheduler.
    /// - Throws: ``TellerError/invalidRetryPolicy(_:)`` naming the value that makes no sense.
    public init(
        maxRetries: Int = 3,
        initialDelay: RxTimeInterval = .seconds(1),
        multiplier: Double = 2,
        maxDelay: RxTimeInterval = .seconds(30),
        jitter: Double = 0,
        isRetryable: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) throws(TellerError) {
        let initialSeconds = secondsOf(initialDelay)
        let maxSeconds = secondsOf(maxDelay)
        if maxRetries < 0 {
            throw .invalidRetryPolicy("maxRetries is \(maxRetries); it must be 0 or more")
        }
        if !initialSeconds.isFinite || initialSeconds < 0 {
            throw .invalidRetryPolicy("initialDelay is \(initialDelay); it must be a finite delay of 0 or more")
        }
        if !maxSeconds.isFinite || maxSeconds < initialSeconds {
            throw .invalidRetryPolicy(
                "maxDelay (\(maxDelay)) is below initialDelay (\(initialDelay)); it must be at least as long"
            )
        }
        if !multiplier.isFinite || multiplier < 1 {
            throw .invalidRetryPolicy("multiplier is \(multiplier); it must be 1 or more")
        }
        if !(0...1).contains(jitter) {
            throw .invalidRetryPolicy("jitter is \(jitter); it must be from 0 to 1")
        }
        self.init(
            validated: maxRetries,
            initialDelay: initialDelay,
            multiplier: multiplier,
            maxDelay: maxDelay,
            jitter: jitter,
            retryable: isRetryable
        )
    }

    private init(
        validated maxRetries: Int,
        initialDelay: RxTimeInterval,
        multiplier: Double,
        maxDelay: RxTimeInterval,
        jitter: Double,
        retryable: @escaping @Sendable (any Error) -> Bool
    ) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.retryable = retryable
    }

    /// Whether a fetch that failed with `error` is tried again, attempts left aside.
    ///
    /// - Parameter error: The error of the failed attempt.
    /// - Returns: What the policy's `isRetryable` says.
    public func isRetryable(_ error: any Error) -> Bool {
        retryable(error)
    }

    /// The delay before the next attempt once `failedAttempts` attempts failed, before jitter:
    /// ``initialDelay`` × ``multiplier``^(`failedAttempts` − 1), at most ``maxDelay``.
    ///
    /// - Parameter failedAttempts: How many attempts failed so far (1 after the first fetch).
    /// - Returns: The delay in seconds.
    public func baseDelay(afterFailedAttempts failedAttempts: Int) -> TimeInterval {
        let initial = secondsOf(initialDelay)
        let cap = secondsOf(maxDelay)
        let exponent = Double(max(failedAttempts - 1, 0))
        return min(initial * pow(multiplier, exponent), cap)
    }

    /// The delay before the next attempt, or `nil` when the policy gives up: no retries left, or
    /// an error the policy does not retry.
    ///
    /// - Parameters:
    ///   - failedAttempts: How many attempts failed so far, the last with `error`.
    ///   - error: The error of the last attempt.
    ///   - random: A number from 0 up to 1 that picks the jitter.
    func delay(afterFailedAttempts failedAttempts: Int, error: any Error, random: Double) -> TimeInterval? {
        delay(afterFailedAttempts: failedAttempts, isRetryable: isRetryable(error), random: random)
    }

    /// ``delay(afterFailedAttempts:error:random:)`` with the policy's `isRetryable` already
    /// asked (it is app code, which a caller holding a lock must call before taking it).
    func delay(afterFailedAttempts failedAttempts: Int, isRetryable: Bool, random: Double) -> TimeInterval? {
        guard failedAttempts <= maxRetries, isRetryable else { return nil }
        return baseDelay(afterFailedAttempts: failedAttempts) * (1 - jitter * random)
    }

    /// A summary such as `3 retries from 1 s ×2 up to 30 s, jitter 0.1`.
    public var description: String {
        guard maxRetries > 0 else { return "no retries" }
        return "\(maxRetries) retries from \(initialDelay) ×\(multiplier) up to \(maxDelay), jitter \(jitter)"
    }
}

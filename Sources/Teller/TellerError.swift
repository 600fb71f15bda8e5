import Foundation

/// Errors Teller reports to app code. Each description says what went wrong and what to do,
/// and is also the `LocalizedError.errorDescription`, so `error.localizedDescription` shows it
/// (not Foundation's generic "The operation could not be completed").
public enum TellerError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A method was called before the named properties were set, e.g.
    /// `objectPropertiesNotSet(["requirements"])` for `refresh()` without requirements.
    case objectPropertiesNotSet(_ properties: [String])
    /// The data source's fetch did not finish within the configured timeout.
    case fetchTimedOut(tag: String, seconds: Double)
    /// The data source's fetch `Single` completed without a value.
    case fetchProducedNoResponse(tag: String)
    /// A ``RetryPolicy`` was given a value that makes no sense (a negative number of retries, a
    /// maximum delay below the initial one, …); the text names it.
    case invalidRetryPolicy(_ problem: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .objectPropertiesNotSet(let properties):
            let names = properties.map { "`\($0)`" }.joined(separator: ", ")
            return "Set \(names) before calling this method: for example, set `requirements` before calling refresh()."
        case .fetchTimedOut(let tag, let seconds):
            return "The fetch for \"\(tag)\" did not finish within \(seconds) s. "
                + "Check the network call, or raise `fetchTimeout` in the Teller configuration."
        case .fetchProducedNoResponse(let tag):
            return "The fetch for \"\(tag)\" completed without a response. "
                + "fetchFreshCache must return a Single that succeeds with a FetchResponse or fails."
        case .invalidRetryPolicy(let problem):
            return "Invalid retry policy: \(problem)."
        }
    }

    /// The same as ``description``.
    public var debugDescription: String {
        description
    }
}

extension TellerError: LocalizedError {
    /// The same as ``description``, so `error.localizedDescription` says what went wrong and what
    /// to do, as Teller-iOS's did. Never `nil`.
    public var errorDescription: String? {
        description
    }
}

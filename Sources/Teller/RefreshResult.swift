/// The outcome of one refresh call.
///
/// `Sendable`: its error is an `any Error`, which is `Sendable` in Swift 6, so a result can be
/// handed to any task or actor.
public enum RefreshResult: Sendable, Equatable, CustomStringConvertible {
    /// Fresh data was fetched and saved (or, for `refreshIfNoCache()`, a cache already existed).
    case successful
    /// The fetch or the save failed; `error` is what the data source returned or threw.
    case failedError(error: any Error)
    /// No fetch was made for this caller; `reason` says why.
    case skipped(reason: SkippedReason)

    /// Why a refresh was skipped.
    public enum SkippedReason: Sendable, Equatable {
        /// The cache is younger than `maxAgeOfCache` and the refresh was not forced.
        case dataNotTooOld
        /// The refresh was called off for this caller: its repository's requirements changed,
        /// its repository was released, or the task awaiting
        /// ``TellerRepositoryProtocol/refreshResult(force:)`` (or another `async` refresh) was
        /// cancelled. Other callers waiting for the same fetch were not affected. (A caller that
        /// disposes its own `Single` gets no answer at all.)
        case cancelled
    }

    /// Whether this is ``successful``.
    public var didSucceed: Bool {
        if case .successful = self { return true }
        return false
    }

    /// The error of ``failedError(error:)``, or `nil`.
    public var error: (any Error)? {
        if case .failedError(let error) = self { return error }
        return nil
    }

    /// A description such as `successful` or `skipped(dataNotTooOld)`.
    public var description: String {
        switch self {
        case .successful: "successful"
        case .failedError(let error): "failedError(\(error))"
        case .skipped(let reason): "skipped(\(reason))"
        }
    }

    /// Results are equal when they are the same case with equal reasons; two errors are equal
    /// when they have the same type and description.
    public static func == (lhs: RefreshResult, rhs: RefreshResult) -> Bool {
        switch (lhs, rhs) {
        case (.successful, .successful): true
        case (.skipped(let left), .skipped(let right)): left == right
        case (.failedError(let left), .failedError(let right)): sameError(left, right)
        default: false
        }
    }
}

/// Two errors are the same for Teller's equality checks when they have the same type and the
/// same description (most errors are not `Equatable`).
func sameError(_ lhs: any Error, _ rhs: any Error) -> Bool {
    ObjectIdentifier(type(of: lhs)) == ObjectIdentifier(type(of: rhs))
        && String(reflecting: lhs) == String(reflecting: rhs)
}

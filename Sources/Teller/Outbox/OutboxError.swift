import Foundation

/// Why a ``TellerOutbox`` call failed. Thrown on the calling thread; the outbox stays usable, and
/// the call changed nothing.
public enum OutboxError: Error, Sendable, CustomStringConvertible {
    /// The payload of a write of `kind` could not be encoded as JSON (`error` says why); nothing
    /// was enqueued.
    case payloadNotEncodable(kind: String, error: any Error)
    /// The outbox's journal could not record the change (`reason` says which file and why: a
    /// full disk, missing permissions, a payload over the journal's 16 MB limit): an enqueue did
    /// not happen, a discard did not either.
    case notRecorded(reason: String)
    /// A send took longer than the ``Teller/fetchTimeout``; it counts as a retryable failure.
    case sendTimedOut(kind: String, seconds: Double)

    /// What went wrong.
    public var description: String {
        switch self {
        case .payloadNotEncodable(let kind, let error):
            "The payload of a \"\(kind)\" write could not be encoded as JSON: \(error)"
        case .notRecorded(let reason):
            "The outbox could not record the change: \(reason)"
        case .sendTimedOut(let kind, let seconds):
            "Sending a \"\(kind)\" write did not finish within \(seconds) s."
        }
    }
}

extension OutboxError: LocalizedError {
    /// The same as ``description``, so `error.localizedDescription` says what went wrong.
    public var errorDescription: String? {
        description
    }
}

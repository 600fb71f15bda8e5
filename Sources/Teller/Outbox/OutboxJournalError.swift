import Foundation

/// Why an outbox journal operation failed. Thrown, on the calling thread, by the operation
/// that failed; the journal stays usable, and the failed append is not recorded.
package enum OutboxJournalError: Error, CustomStringConvertible {
    /// The folder or file could not be created, opened, written or flushed (`error` says which
    /// call failed and why): the entry is not durable and was not recorded.
    case unwritable(url: URL, error: any Error)
    /// The file exists but could not be opened or read.
    case unreadable(url: URL, error: any Error)
    /// The lock file could not be opened or locked, so the journal was not touched (writing
    /// without the lock could interleave with another process's append).
    case unlocked(url: URL, error: any Error)
    /// The entry's JSON is `bytes` long, more than the `limit` one entry may hold.
    case entryTooLarge(bytes: Int, limit: Int)

    /// What failed, with the file path.
    package var description: String {
        switch self {
        case .unwritable(let url, let error):
            "The outbox journal \(url.path) could not be written (\(error))."
        case .unreadable(let url, let error):
            "The outbox journal \(url.path) could not be read (\(error))."
        case .unlocked(let url, let error):
            "The outbox journal's lock \(url.path) could not be taken (\(error))."
        case .entryTooLarge(let bytes, let limit):
            "An outbox journal entry of \(bytes) bytes exceeds the limit of \(limit) bytes."
        }
    }
}

import Foundation

/// Damage an outbox journal read past: reported to the journal's `onProblem` callback, never
/// thrown, because every whole entry around it was still read.
package enum OutboxJournalProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file ends with `bytes` bytes that are not a whole entry, from `offset` on: an append
    /// a crash interrupted (its enqueue never returned). Ignored, and cut off by the next
    /// append.
    case tornTail(url: URL, offset: Int64, bytes: Int)
    /// The `bytes` bytes at `offset` are not an entry that checks out, or one that could not be
    /// decoded; they were skipped and the entries after them read. What they held is lost.
    case damagedEntry(url: URL, offset: Int64, bytes: Int, reason: String)
    /// An append succeeded, but rewriting the file without its dead entries failed; the file
    /// keeps them until a later compaction succeeds.
    case compactionFailed(url: URL, reason: String)

    /// What happened, with the file path.
    package var description: String {
        switch self {
        case .tornTail(let url, let offset, let bytes):
            "The outbox journal \(url.path) ends with \(bytes) bytes of an unfinished entry at \(offset) (a crash during an append); ignoring them."
        case .damagedEntry(let url, let offset, let bytes, let reason):
            "The outbox journal \(url.path) has \(bytes) damaged bytes at \(offset): \(reason); skipping them."
        case .compactionFailed(let url, let reason):
            "The outbox journal \(url.path) could not be compacted (\(reason)); keeping it as it is."
        }
    }
}

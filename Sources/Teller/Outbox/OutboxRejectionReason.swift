/// The error of a rejection or conflict read back from the journal: an ``OutboxRejection`` or
/// ``OutboxConflict`` listed after a relaunch (or recorded by another process sharing the
/// journal) carries this instead of the handler's error, which could not be stored. Its
/// ``description`` is that error's, as it was when the server refused the write.
///
/// A value: read it on any thread.
public struct OutboxRejectionReason: Error, Sendable, Equatable, CustomStringConvertible {
    /// The handler's error's description (`"\(error)"`), as recorded.
    public let description: String

    /// Creates a reason. The outbox makes these; tests may too.
    ///
    /// - Parameter description: The rejected error's description.
    public init(_ description: String) {
        self.description = description
    }
}

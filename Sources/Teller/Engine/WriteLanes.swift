import TellerRx

/// The writes of one data-source type (saving a fetched page, deleting, trimming to the first
/// page), one at a time in the order they were asked for, whichever repository and tag ask: a
/// repository never runs two writes at once, and neither do two repositories showing one list.
/// Writes are local and short; one lane per type keeps both promises without holding two. Pure;
/// the ``RefreshCoordinator`` keeps it behind its lock and runs the writes outside it.
///
/// A lane is a queue, not a lock held around the write: no data-source code runs under a lock,
/// and a write that leads to another write of the same key (on the same thread) queues it
/// instead of deadlocking.
struct WriteLanes<Write> {
    /// A lane is here while one of its writes runs; the queue holds the writes waiting for it.
    private var lanes: [ObjectIdentifier: FIFOQueue<Write>] = [:]

    /// Asks for `write`.
    ///
    /// - Returns: `write` when the lane was free and it runs now (the caller runs it, then calls
    ///   ``finished(_:)``); `nil` when it waits for the writes before it.
    mutating func enqueue(_ key: ObjectIdentifier, _ write: Write) -> Write? {
        guard lanes[key] != nil else {
            lanes[key] = FIFOQueue()
            return write
        }
        lanes[key]?.enqueue(write)
        return nil
    }

    /// The write running in the lane `key` ended.
    ///
    /// - Returns: The next write to run now, or `nil` when the lane is free again.
    mutating func finished(_ key: ObjectIdentifier) -> Write? {
        guard let next = lanes[key]?.dequeue() else {
            lanes[key] = nil
            return nil
        }
        return next
    }
}

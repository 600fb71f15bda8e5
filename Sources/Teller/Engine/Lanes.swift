@_spi(TellerInternals) import TellerRx

/// Jobs that must not overlap, one lane per key, each lane running one job at a time in the order
/// they were asked for. The ``RefreshCoordinator`` keeps two: the data source's writes, one lane
/// per data-source type (a repository never runs two writes at once, and neither do two
/// repositories showing one list; writes are local and short, so one lane per type keeps both
/// promises without holding two), and fetches, one lane per ``FlightKey`` (at most one fetch of
/// a tag at a time, even when a cancelled flight's fetch is still being disposed). Pure; the
/// coordinator keeps it behind its lock and runs the jobs outside it.
///
/// A lane is a queue, not a lock held around the job: no data-source code runs under a lock,
/// and a job that leads to another job of the same lane (on the same thread) queues it instead
/// of deadlocking.
struct Lanes<Key: Hashable, Job> {
    /// A lane is here while one of its jobs runs; the queue holds the jobs waiting for it.
    private var lanes: [Key: FIFOQueue<Job>] = [:]

    /// Asks for `job`.
    ///
    /// - Returns: `job` when the lane was free and it runs now (the caller runs it, then calls
    ///   ``finished(_:)`` when it ends); `nil` when it waits for the jobs before it.
    mutating func enqueue(_ key: Key, _ job: Job) -> Job? {
        guard let index = lanes.index(forKey: key) else {
            lanes[key] = FIFOQueue()
            return job
        }
        lanes.values[index].enqueue(job)
        return nil
    }

    /// The job running in the lane `key` ended.
    ///
    /// - Returns: The next job to run now, or `nil` when the lane is free again.
    mutating func finished(_ key: Key) -> Job? {
        guard let index = lanes.index(forKey: key) else { return nil }
        guard let next = lanes.values[index].dequeue() else {
            lanes.remove(at: index)
            return nil
        }
        return next
    }
}

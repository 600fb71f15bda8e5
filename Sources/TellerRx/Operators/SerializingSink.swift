/// A sink whose events come from more than one source or thread (two sequences, a source and a
/// timer). Each event's work, state changes and forwarding alike, goes through one
/// ``SerialDrain``: it never overlaps another's and runs under no lock, so it may forward,
/// send a terminal event, dispose sources and schedule timers directly. A downstream observer
/// that sends back into a source from inside `onNext` has that event handled right after the
/// current one, not inside it.
///
/// The subclass's mutable state is touched only inside ``serialized(_:)`` (or between
/// ``enterIfIdle()`` and ``leave()``).
class SerializingSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: the subclasses' state is reached only from the drain's work, one at a time.
    private let drain = SerialDrain()

    /// Runs `work` after any work already running or queued: on this thread, or, if another
    /// thread is busy with this sink, on that one (this one does not wait).
    final func serialized(_ work: @escaping @Sendable () -> Void) {
        drain.run(work)
    }

    /// For an element path that should not allocate a closure: `true` if this thread may run
    /// its work now, in which case it must call ``leave()`` right after. On `false`, pass the
    /// work to ``serialized(_:)``.
    @inline(__always)
    final func enterIfIdle() -> Bool {
        drain.tryEnter()
    }

    /// Ends the work begun after ``enterIfIdle()`` returned `true`, running what was queued meanwhile.
    @inline(__always)
    final func leave() {
        drain.drain()
    }
}

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

/// A ``SerializingSink`` that handles every source event inside its drain (the timer
/// operators): elements go to ``handleNext(_:)`` without an ``Event`` built (a run-time
/// metadata lookup each in unspecialized generic code) or, when the drain is idle, a closure
/// allocated; the terminal event goes to ``handleTerminal(_:)``. Subclasses override both.
class DrainedSourceSink<Element: Sendable, Observer: ObserverType>: SerializingSink<Observer>, ObserverType,
    @unchecked Sendable
{
    // @unchecked: no state of its own; the subclasses' is touched only inside the drain.

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    final func onNext(_ element: Element) {
        if enterIfIdle() {
            handleNext(element)
            leave()
        } else {
            serialized { [self] in handleNext(element) }
        }
    }

    final func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            serialized { [self] in handleTerminal(.failed(error)) }
        case .completed:
            serialized { [self] in handleTerminal(.completed) }
        }
    }

    /// Handles a source element. Called inside the drain.
    func handleNext(_ element: Element) {
        preconditionFailure("DrainedSourceSink.handleNext must be overridden by \(type(of: self))")
    }

    /// Handles the source's terminal event. Called inside the drain.
    func handleTerminal(_ terminal: SinkTerminal) {
        preconditionFailure("DrainedSourceSink.handleTerminal must be overridden by \(type(of: self))")
    }
}

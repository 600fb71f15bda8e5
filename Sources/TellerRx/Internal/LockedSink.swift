#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A sink fed by several sources, or by an outer sequence and its inner ones: the flat-map
/// family, `switchLatest`, `zip` and `combineLatest`. Its ``lock`` guards the subclass's state
/// and is never held while an event goes downstream: what to send is decided under it, and
/// sent after it.
///
/// **The delivery turn**, the one protocol that keeps those events serialized, in order, and
/// re-entrancy safe without a recursive lock. Every event is decided under the lock, and in the
/// same critical section either takes the turn (if it is free) or is queued in the backlog for
/// the thread holding it. The holder sends its event once it released the lock, then whatever
/// was queued meanwhile, in the order it was decided, and frees the turn. A thread that finds
/// the turn held (another thread's, or its own further up the stack when a downstream observer
/// sends back into the operator) queues its event and returns at once. So events never overlap
/// downstream, never nest, keep the order in which they were decided, and no observer runs
/// under the lock.
///
/// The turn is a word beside the lock (``Turn``): taken under the lock with a plain store (only
/// its holder changes it outside the lock, and a free turn has none), freed by the holder with
/// one compare-and-swap when nothing was queued. So the common path (nobody else delivering)
/// costs one atomic read-modify-write beyond the lock's own, and no allocation.
///
/// A subclass decides under ``lock``: ``claimTurn(for:)`` for an element (then ``deliver(_:)``
/// after releasing the lock), ``fail(_:)`` or ``complete()`` to end; once it released the lock
/// it calls ``finishIfStopped()``.
///
/// A sink whose elements are made by user code (the result selectors of `zip` and
/// `combineLatest`) decides a result under the lock but makes it after: it takes what the
/// result needs under the lock, and ``claimTurnToMakeResult(otherwise:)`` either gives it the
/// turn (it makes the result without the lock, then calls ``deliver(_:)``, or
/// ``failMakingResult(_:)`` if making it threw) or queues that snapshot for the holder, which
/// makes the result from it (``makeResult(from:)``) when its turn comes. So results are made
/// one at a time, in the order decided, and never under the lock.
class LockedSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: `pendingTerminal` and `backlog` are only touched under `lock`; `turn` is
    // atomic.
    /// Guards the subclass's state and the backlog; never held while calling out.
    final let lock = Lock()
    /// The delivery turn, a ``Turn`` value. Changed under `lock`, except by its holder freeing
    /// it when nothing is queued.
    private final let turn = AtomicState(Turn.free)
    /// A terminal event that the thread which decided it sends itself, because it found the turn
    /// free (no allocation on the common path). No dynamic exclusivity checks: the lock already
    /// makes every access exclusive.
    @exclusivity(unchecked) private final var pendingTerminal = PendingTerminal()
    /// Events decided while another delivery was under way, created on first need.
    @exclusivity(unchecked) private final var backlog: Backlog<Observer.Element>?

    /// Called under `lock`: decides to send `element`, unless the sink has stopped.
    ///
    /// - Returns: `true` if this thread now holds the turn: it must call ``deliver(_:)`` with
    ///   `element` once it released the lock. `false` if the element was queued for the thread
    ///   holding the turn, or dropped because the sink has stopped.
    @inline(__always)
    final func claimTurn(for element: Observer.Element) -> Bool {
        if isDisposed { return false }
        if takeTurn() { return true }
        enqueue(element)
        return false
    }

    /// Call after releasing `lock`, with the element ``claimTurn(for:)`` returned `true` for:
    /// sends it, then whatever was queued meanwhile, and frees the turn.
    @inline(__always)
    final func deliver(_ element: Observer.Element) {
        // Decided before any terminal event, so sent even if the sink stopped since; not once
        // it was disposed.
        if !isDisposedFromOutside {
            observer.onNext(element)
        }
        passTurnOn()
    }

    /// Called under `lock`: decides a result that user code makes, unless the sink has stopped.
    ///
    /// - Parameter snapshot: Takes what the result needs (under the lock), to queue it for the
    ///   thread holding the turn; only called if another thread (or this one, further up the
    ///   stack) holds it.
    /// - Returns: `true` if this thread now holds the turn: it must take what the result needs
    ///   before it releases the lock, then make the result and deliver it with ``deliver(_:)``
    ///   (or call ``failMakingResult(_:)``). `false` if the snapshot was queued, or nothing was
    ///   because the sink has stopped.
    @inline(__always)
    final func claimTurnToMakeResult(otherwise snapshot: () -> MultiSourceSnapshot) -> Bool {
        if isDisposed { return false }
        if takeTurn() { return true }
        enqueue(snapshot())
        return false
    }

    /// Call after releasing `lock`, holding the turn ``claimTurnToMakeResult(otherwise:)``
    /// gave, when making the result (user code) threw `error`; a result made is delivered with
    /// ``deliver(_:)``. The sink ends with the error in the result's place: unless it has
    /// already stopped (a terminal event decided meanwhile, or a disposal), the error is the
    /// last event, and nothing decided after the result is sent.
    @inline(never)
    final func failMakingResult(_ error: any Error) {
        if !failHoldingTurn(error) { passTurnOn() }
    }

    /// Makes a result from a snapshot queued by ``claimTurnToMakeResult(otherwise:)``, for the
    /// thread holding the turn, without the lock. Overridden by the sinks that queue them.
    func makeResult(from snapshot: MultiSourceSnapshot) throws -> Observer.Element {
        preconditionFailure("LockedSink.makeResult(from:) must be overridden")
    }

    /// Called by the thread holding the turn, without the lock, when making a result threw:
    /// stops with `error`, keeping the turn (nothing is delivered after a terminal event).
    ///
    /// - Returns: `false` if the sink had already stopped: the caller still holds the turn and
    ///   passes it on (a terminal event decided meanwhile is queued for it).
    @inline(never)
    private final func failHoldingTurn(_ error: any Error) -> Bool {
        lock.withLock {
            if isDisposed { return false }
            stopForwarding(recording: .failed(error), in: &pendingTerminal)
            return true
        }
    }

    /// Called by the thread holding the turn, without the lock, once its event is sent: frees
    /// the turn, or sends what was queued meanwhile first.
    @inline(__always)
    private final func passTurnOn() {
        let (freed, _) = turn.compareExchange(
            expected: Turn.held,
            desired: Turn.free
        )
        if !freed {
            drainBacklog()
        }
    }

    /// Called under `lock`: ends with `error`, sent once the lock is released.
    @inline(never)
    final func fail(_ error: any Error) {
        stop(with: .failed(error))
    }

    /// Called under `lock`: ends with completion, sent once the lock is released.
    @inline(never)
    final func complete() {
        stop(with: .completed)
    }

    /// Called under `lock`: stops forwarding at once (see ``LockedSink``)
    /// and decides the terminal event: this thread sends it if the turn was free, the thread
    /// holding the turn after the events decided before it otherwise.
    private final func stop(with terminal: SinkTerminal) {
        if isDisposed { return }
        // A turn taken here is never freed: nothing is decided after a terminal event.
        if takeTurn() {
            stopForwarding(recording: terminal, in: &pendingTerminal)
        } else {
            _ = markStopped()
            switch terminal {
            case .completed: enqueue(.completed)
            case .failed(let error): enqueue(.error(error))
            }
        }
    }

    /// Called under `lock`: takes the turn if it is free; otherwise marks the backlog as
    /// holding events, for the holder to drain (the caller queues its event next, before it
    /// releases the lock).
    ///
    /// - Returns: Whether this thread now holds the turn.
    @inline(__always)
    private final func takeTurn() -> Bool {
        // A store suffices: no other thread holds the lock, and a free turn has no holder to
        // change it.
        if turn.load() == Turn.free {
            turn.store(Turn.held)
            return true
        }
        return markBacklog()
    }

    /// Called under `lock` when the turn was found held: marks the backlog for its holder, who
    /// may be freeing the turn at this moment (without the lock), hence the compare-and-swap.
    ///
    /// - Returns: `true` if the holder freed the turn first and this thread took it instead.
    @inline(never)
    private final func markBacklog() -> Bool {
        let (marked, found) = turn.compareExchange(
            expected: Turn.held,
            desired: Turn.heldWithBacklog
        )
        if marked || found == Turn.heldWithBacklog { return false }
        turn.store(Turn.held)
        return true
    }

    /// Called under `lock`, out of line: only when a delivery is under way. (Takes the element,
    /// not an `Event`: a function that builds an `Event` in unspecialized code pays a metadata
    /// lookup on entry, taken or not, so ``claimTurn(for:)`` must not build one.)
    @inline(never)
    private final func enqueue(_ element: Observer.Element) {
        enqueue(.next(element))
    }

    /// Called under `lock`: queues `event` for the thread holding the turn.
    @inline(never)
    private final func enqueue(_ event: Event<Observer.Element>) {
        enqueue(.event(event))
    }

    /// Called under `lock`: queues what a result is made from for the thread holding the turn.
    @inline(never)
    private final func enqueue(_ snapshot: MultiSourceSnapshot) {
        enqueue(.result(snapshot))
    }

    private final func enqueue(_ queued: Queued<Observer.Element>) {
        let queue = backlog ?? Backlog()
        backlog = queue
        queue.events.enqueue(queued)
    }

    /// Called by the thread holding the turn once the backlog was marked: sends the queued
    /// events, in order, then frees the turn in the critical section that finds none left.
    @inline(never)
    private final func drainBacklog() {
        while let queued = lock.withLock({ nextQueued() }) {
            switch queued {
            case .event(.next(let element)):
                if !isDisposedFromOutside { observer.onNext(element) }
            case .event(.error(let error)):
                finish(.failed(error))
            case .event(.completed):
                finish(.completed)
            case .result(let snapshot):
                // Disposed: nobody wants the result; the snapshot's elements go with it.
                if isDisposedFromOutside { continue }
                let element: Observer.Element
                do {
                    element = try makeResult(from: snapshot)
                } catch {
                    if failHoldingTurn(error) { return }
                    continue
                }
                if !isDisposedFromOutside { observer.onNext(element) }
            }
        }
    }

    /// Called under `lock` by the thread holding the turn: the next queued event, or `nil`
    /// once the turn is freed.
    private final func nextQueued() -> Queued<Observer.Element>? {
        if let event = backlog?.events.dequeue() { return event }
        turn.store(Turn.free)
        return nil
    }

    /// Call after releasing `lock`: if this thread stopped the sink holding the turn, sends the
    /// terminal event and disposes every source.
    @inline(__always)
    final func finishIfStopped() {
        if isDisposed { finishIfStoppedHere() }
    }

    /// ``finishIfStopped()`` once the sink reports ``SubscriptionSlot/isDisposed``.
    @inline(never)
    final func finishIfStoppedHere() {
        finish(lock.withLock { pendingTerminal.takeIfRecordedHere() })
    }

    /// Records `terminal` in `pending` and stops forwarding at once, unless this sink has
    /// already stopped or been disposed: for a terminal event decided under `lock` while the
    /// delivery turn was free. The thread that calls this sends the event, and disposes the
    /// sources, once it has released the lock: see ``finish(_:)``.
    ///
    /// Why: disposing a source can take that source's lock, and so can sending the terminal
    /// event, since the operators downstream dispose their upstream as soon as they get it. A
    /// thread that holds such a lock and sends into the operator would wait for the operator's
    /// lock while this one waits for its lock: a deadlock (RxSwift issues #2703 and #2711).
    /// Stopping under the lock is what keeps any other source's event from being forwarded
    /// after the terminal one.
    ///
    /// - Parameters:
    ///   - terminal: How the sequence ends.
    ///   - pending: The sink's slot for it, guarded by the same lock as the caller.
    private final func stopForwarding(recording terminal: SinkTerminal, in pending: inout PendingTerminal) {
        if isDisposed { return }
        pending.record(terminal)
        _ = markStopped()
    }

    /// Sends `terminal`, which this thread decided under the operator's lock, then disposes;
    /// call it after releasing that lock, with what ``PendingTerminal/takeIfRecordedHere()``
    /// returned under it. `nil` (nothing recorded, or recorded by another thread, which sends
    /// it) does nothing: a thread that only sent into a stopped sink never tears it down.
    ///
    /// The event is sent even though this sink has stopped forwarding: stopping is what made
    /// it the last one.
    @inline(never)
    private final func finish(_ terminal: SinkTerminal?) {
        switch terminal {
        case .completed?: observer.on(.completed)
        case .failed(let error)?: observer.on(.error(error))
        case nil: return
        }
        dispose()
    }
}

/// The values of a ``LockedSink``'s delivery turn.
private enum Turn {
    /// Nobody is delivering: the next event decided takes the turn.
    static let free = 0
    /// A thread is delivering and nothing is queued: it frees the turn with a compare-and-swap.
    static let held = 1
    /// A thread is delivering and the backlog holds events for it: it drains the backlog and
    /// frees the turn under the lock.
    static let heldWithBacklog = 2
}

/// A locked sink's queue of events decided while another thread (or this one, further up the
/// stack) was delivering; a class so that a sink that never queues holds only `nil`. Guarded
/// by the sink's lock.
private final class Backlog<Element> {
    var events = FIFOQueue<Queued<Element>>()
}

/// What a locked sink's backlog holds: an event, or what a result is made from (see
/// ``LockedSink/claimTurnToMakeResult(otherwise:)``).
private enum Queued<Element> {
    case event(Event<Element>)
    case result(MultiSourceSnapshot)
}

/// A sink's slot for its ``SinkTerminal``, guarded by the sink's lock, which remembers the
/// thread that recorded it: only that thread sends it. Another thread that finds the sink
/// stopped may hold a lock the teardown needs (it may be a source sending from under its own
/// lock), so it must not be the one to tear down.
private struct PendingTerminal {
    private var terminal: SinkTerminal?
    private var recorder: pthread_t?

    mutating func record(_ terminal: SinkTerminal) {
        self.terminal = terminal
        recorder = pthread_self()
    }

    /// The terminal event, once, if this thread recorded it; otherwise `nil`.
    mutating func takeIfRecordedHere() -> SinkTerminal? {
        guard let recorder, pthread_equal(recorder, pthread_self()) != 0 else { return nil }
        self.recorder = nil
        return terminal.take()
    }
}

import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The per-subscription half of an operator: receives upstream events, applies the operator
/// and forwards to the downstream observer. Once disposed it forwards nothing.
///
/// Subclasses call ``forwardOn(_:)`` to deliver and ``dispose()`` after a terminal event so
/// the upstream subscription and everything the chain holds is freed.
class Sink<Observer: ObserverType>: Disposable, @unchecked Sendable {
    // @unchecked: `observer` and `cancel` are immutable; `disposed` is atomic. Subclasses
    // guard their own mutable state.
    final let observer: Observer
    final let cancel: any Cancelable
    private let disposed = Atomic<Bool>(false)

    init(observer: Observer, cancel: any Cancelable) {
        self.observer = observer
        self.cancel = cancel
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Sends `event` downstream unless this sink is disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if disposed.load(ordering: .relaxed) { return }
        observer.on(event)
    }

    /// Sends `element` downstream unless this sink is disposed, without building an `Event`:
    /// in generic code, constructing or switching over an `Event` costs a type-metadata lookup
    /// per event, so element paths should use this and implement ``ObserverType/onNext(_:)``.
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        if disposed.load(ordering: .relaxed) { return }
        observer.onNext(element)
    }

    /// Sends `error` downstream, then disposes. Out of line on purpose: a function that builds
    /// an `Event` gets its stack space sized at entry, with a metadata lookup, even when the
    /// error path is not taken; call this from element paths instead of `forwardOn(.error(…))`.
    @inline(never)
    final func forwardErrorAndDispose(_ error: any Error) {
        forwardOn(.error(error))
        dispose()
    }

    /// Whether this sink has been disposed.
    final var isDisposed: Bool {
        disposed.load(ordering: .relaxed)
    }

    /// Records `terminal` in `pending` and stops forwarding at once, unless this sink has
    /// already stopped or been disposed; for operators that decide to end under their own lock
    /// (merge, zip, combineLatest, …). The thread that calls this sends the event, and disposes
    /// the sources, once it has released the lock: see ``finish(_:)``.
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
    final func stopForwarding(recording terminal: SinkTerminal, in pending: inout PendingTerminal) {
        if disposed.load(ordering: .relaxed) { return }
        pending.record(terminal)
        disposed.store(true, ordering: .relaxed)
    }

    /// Sends `terminal`, which this thread decided under the operator's lock, then disposes;
    /// call it after releasing that lock, with what ``PendingTerminal/takeIfRecordedHere()``
    /// returned under it. `nil` (nothing recorded, or recorded by another thread, which sends
    /// it) does nothing: a thread that only sent into a stopped sink never tears it down.
    ///
    /// The event is sent even though this sink has stopped forwarding: stopping is what made
    /// it the last one.
    @inline(never)
    final func finish(_ terminal: SinkTerminal?) {
        switch terminal {
        case .completed?: observer.on(.completed)
        case .failed(let error)?: observer.on(.error(error))
        case nil: return
        }
        dispose()
    }

    /// Stops forwarding and disposes the upstream subscription (through `cancel`).
    func dispose() {
        disposed.store(true, ordering: .relaxed)
        cancel.dispose()
    }

    /// An observer that forwards into this sink with `forwardOn`, for operators that
    /// subscribe to an inner sequence of the same element type.
    final func forwarder() -> SinkForwarder<Observer> {
        SinkForwarder(forwardTo: self)
    }
}

/// Forwards events into a sink: `next` events with `forwardOn`, terminal events with
/// `forwardOn` followed by `dispose`.
struct SinkForwarder<Observer: ObserverType>: ObserverType {
    let forwardTo: Sink<Observer>

    func onNext(_ element: Observer.Element) {
        forwardTo.forwardNext(element)
    }

    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next:
            forwardTo.forwardOn(event)
        case .error, .completed:
            forwardTo.forwardOn(event)
            forwardTo.dispose()
        }
    }
}

/// A terminal event that a multi-source sink decided under its lock, to send once the lock is
/// released (see ``Sink/stopForwarding(recording:in:)``). Not generic, so keeping one adds no
/// field whose layout depends on the element type.
enum SinkTerminal {
    case completed
    case failed(any Error)
}

/// A sink's slot for its ``SinkTerminal``, guarded by the sink's lock, which remembers the
/// thread that recorded it: only that thread sends it. Another thread that finds the sink
/// stopped may hold a lock the teardown needs (it may be a source sending from under its own
/// lock), so it must not be the one to tear down.
struct PendingTerminal {
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

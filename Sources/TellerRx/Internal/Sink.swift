import Synchronization

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

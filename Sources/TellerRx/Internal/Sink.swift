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

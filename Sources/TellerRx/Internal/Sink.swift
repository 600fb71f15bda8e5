/// The per-subscription half of every operator, and its subscription: receives upstream
/// events, applies the operator and forwards to the downstream observer. It is the slot for
/// its own upstream subscription, so one object per operator per subscription carries both.
///
/// Created in ``Producer/run(_:downstream:)`` with the `downstream` slot it was given: the
/// sink hands itself to that slot before it subscribes upstream, so a downstream operator
/// that ends while a synchronous source is still sending (`take`, `first`, a throwing
/// closure, …) disposes this sink, and the source behind it, before the next element; no
/// closure upstream of it runs for elements nobody will see.
///
/// Subclasses deliver with ``forwardNext(_:)``/``forwardOn(_:)`` and ``dispose()`` after a
/// terminal event. Once disposed a sink forwards nothing, and gets nothing more to run its
/// closure on: disposing it disposed its upstream sink too (handed to it before that one
/// subscribed), and every source checks its own subscription before it delivers. So an
/// element path needs no check of its own before the closure, as in RxSwift.
class Sink<Observer: ObserverType>: SubscriptionSlot, @unchecked Sendable {
    // @unchecked: `observer` is immutable; the slot's state is atomic. Subclasses guard their
    // own mutable state.
    /// The outermost subscription, when this sink was handed to it: ended with this sink, so
    /// a chain that ends itself lets go of its sinks (and the observer's closures) even while
    /// the caller still holds the subscription. Before `observer`, whose size is generic.
    private final var topLevelSubscription: SubscriptionSlot?
    final let observer: Observer

    /// - Parameters:
    ///   - observer: Receives what the sink forwards.
    ///   - downstream: The slot to hand this sink to as its subscription, now, before the
    ///     sink subscribes upstream; `nil` when the caller takes the sink from `run`'s result.
    init(observer: Observer, downstream: SubscriptionSlot?) {
        self.observer = observer
        super.init()
        Resources.increment()
        wire(to: downstream)
    }

    /// For sinks whose `run` calls ``wire(to:)`` itself, right after.
    init(observer: Observer) {
        self.observer = observer
        super.init()
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Hands this sink to `downstream` (see ``SubscriptionSlot/handOver(to:)``) and, if that is
    /// the outermost subscription, remembers it to end it with this sink.
    @inline(__always)
    final func wire(to downstream: SubscriptionSlot?) {
        if handOver(to: downstream) {
            keepTopLevelSubscription(downstream)
        }
    }

    /// Once per chain, for its last sink: out of line.
    @inline(never)
    private final func keepTopLevelSubscription(_ subscription: SubscriptionSlot?) {
        topLevelSubscription = subscription
    }

    /// Ends the outermost subscription holding this sink (which does nothing more when that is
    /// what disposed this sink).
    override func endTopLevelSubscription() {
        topLevelSubscription?.dispose()
    }

    /// Sends `event` downstream unless this sink is disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if isDisposed { return }
        observer.on(event)
    }

    /// Sends `element` downstream unless this sink is disposed, without building an `Event`:
    /// in generic code, constructing or switching over an `Event` costs a type-metadata lookup
    /// per event, so element paths should use this and implement ``ObserverType/onNext(_:)``.
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        if isDisposed { return }
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

    /// Sends a terminal `event` downstream unless disposed, then disposes.
    @inline(never)
    final func forwardTerminal(_ event: Event<Observer.Element>) {
        forwardOn(event)
        dispose()
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

/// How a sink ends: decided under a lock and sent after it (``LockedSink``), or handled inside
/// a drain (``DrainedSourceSink``). Not generic, so keeping one adds no
/// field whose layout depends on the element type.
enum SinkTerminal {
    case completed
    case failed(any Error)
}

/// An observable sequence: the type returned by every TellerRx operator.
///
/// Subscribing starts the work; disposing the subscription stops it. Most observables are
/// cold (each subscription runs the work again); subjects and `share` make hot ones.
/// An `Observable` may be shared and subscribed to from any thread.
public class Observable<Element: Sendable>: ObservableType, @unchecked Sendable {
    // @unchecked: the base class has no state; subclasses keep theirs immutable or locked.

    init() {
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Subscribes `observer` to the sequence's events.
    ///
    /// - Parameter observer: Receives the events, serially.
    /// - Returns: A disposable that ends the subscription.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        preconditionFailure("Observable.subscribe must be overridden by \(type(of: self))")
    }

    /// Subscribes `observer` and stores the subscription in `downstream`, from inside an
    /// operator's ``Producer/run(_:downstream:)``: the trampoline runs there already, so this
    /// goes straight to `run` (one dynamic call, no thread-local read). Subscriptions made
    /// later (an inner or next sequence, a retry) use ``subscribeEnteringTrampoline(_:upstreamOf:)``.
    @inline(__always)
    final func subscribe<Observer: ObserverType>(_ observer: Observer, upstreamOf downstream: SubscriptionSlot)
    where Observer.Element == Element {
        _ = run(observer, downstream: downstream)
    }

    /// Subscribes `observer` and stores the subscription in `downstream`, from anywhere: a
    /// ``Producer`` enters the current-thread trampoline first when none runs, as its public
    /// `subscribe` does.
    func subscribeEnteringTrampoline<Observer: ObserverType>(
        _ observer: Observer,
        upstreamOf downstream: SubscriptionSlot
    ) where Observer.Element == Element {
        _ = run(observer, downstream: downstream)
    }

    /// Subscribes `observer`; with a `downstream` slot, stores the subscription there before
    /// returning. ``Producer`` overrides it to create its sink, which hands itself to
    /// `downstream` before subscribing further upstream, so disposal reaches the sink while a
    /// synchronous source is still sending. Other observables (subjects, relays) subscribe
    /// through an ``UnlessDisposedObserver`` and store.
    ///
    /// - Returns: The subscription, when `downstream` is `nil`.
    func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        guard let downstream else { return subscribe(observer) }
        downstream.setSubscription(subscribe(UnlessDisposedObserver(observer: observer, slot: downstream)))
        return Disposables.create()
    }

    /// Returns this observable.
    public func asObservable() -> Observable<Element> {
        self
    }

    /// Calls `body` with the element of a `just` and returns `true`; returns `false` without
    /// calling it for every other observable. Merging operators use it to skip subscribing to
    /// such inner sequences (the events are the same: `just` sends its element and completes
    /// at once, and subscribing to it has no other effect).
    func withScalarElement(_ body: (Element) -> Void) -> Bool {
        false
    }
}

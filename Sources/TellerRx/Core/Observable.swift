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

    /// Subscribes `observer` and stores the subscription in `downstream`: for sinks, whose
    /// upstream subscription is `downstream`. ``Producer`` overrides it to store its sink
    /// before subscribing further upstream, so disposal reaches the sink while a synchronous
    /// source is still sending.
    func subscribe<Observer: ObserverType>(_ observer: Observer, upstreamOf downstream: SubscriptionSlot)
    where Observer.Element == Element {
        downstream.setSubscription(subscribe(observer))
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

/// Forwards to `observer` only while `slot` is not disposed.
///
/// Stands between an observable that is not a ``Producer`` (a subject, `share`, `multicast`)
/// and the sink that subscribes to it from its `run`: the sink's slot gets that subscription
/// only once `subscribe` returns, but a replaying subject sends while being subscribed, so a
/// sink that a downstream `take` ended meanwhile could not stop it. This drops what it sends
/// after that, so the sink (and its closure) never sees it. A producer needs none of this: its
/// sink is in the slot before it subscribes further.
struct UnlessDisposedObserver<Observer: ObserverType>: ObserverType {
    let observer: Observer
    let slot: SubscriptionSlot

    func onNext(_ element: Observer.Element) {
        if slot.isDisposed { return }
        observer.onNext(element)
    }

    func on(_ event: Event<Observer.Element>) {
        if slot.isDisposed { return }
        observer.on(event)
    }
}

/// An observable that is not a ``Producer`` and sends at most one element while being
/// subscribed (`just`, `empty`, `never`, `error`): a sink subscribing to it from its `run`
/// needs no ``UnlessDisposedObserver``, so it skips the guard's cost (a generic type's
/// metadata lookup per subscription).
@usableFromInline
class ImmediateObservable<Element: Sendable>: Observable<Element>, @unchecked Sendable {
    // @unchecked: subclasses are immutable.

    override final func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        guard let downstream else { return subscribe(observer) }
        downstream.setSubscription(subscribe(observer))
        return Disposables.create()
    }
}

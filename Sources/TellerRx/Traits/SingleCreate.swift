/// The observable behind `Single.create`: runs the user's subscribe closure with a callback that
/// turns the single's outcome into Rx events.
///
/// Single-specific rather than a `TraitCreateProducer<SingleEvent<Element>>`: generic code over
/// a trait event type looks up the type metadata of the event, of `Result` and of `MaybeEvent`
/// at run time on every event. `@usableFromInline` so that `Single.create` builds it where the
/// element type is known, and so that `subscribe(onSuccess:onFailure:onDisposed:)` can run
/// `subscribeHandler` itself (see ``SingleCallbackObserver``) instead of going through a sink.
@usableFromInline
final class SingleCreateProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: `subscribeHandler` is immutable; like `Observable.create`'s, it may capture
    // non-Sendable state by design and is only called on the subscribing thread.
    @usableFromInline
    typealias SubscribeHandler = (@escaping @Sendable (SingleEvent<Element>) -> Void) -> any Disposable

    @usableFromInline
    let subscribeHandler: SubscribeHandler

    @usableFromInline
    init(_ subscribeHandler: @escaping SubscribeHandler) {
        self.subscribeHandler = subscribeHandler
    }

    /// The path for every observer other than the traits' own `subscribe` closures: operators,
    /// `asObservable()` subscribers, test observers.
    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = SingleCreateSink(observer: observer, downstream: downstream)
        sink.setSubscription(subscribeHandler { event in sink.on(event) })
        return sink
    }
}

/// Enforces the one-event grammar of a created single for an Rx observer: the first outcome
/// wins (a success as `next` then `completed`), anything after it is dropped and reported in
/// debug builds. It is also the subscription: disposing it disposes the closure's disposable.
private final class SingleCreateSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: nothing beyond `Sink`, whose stopped bit enforces the grammar.

    func on(_ event: SingleEvent<Observer.Element>) {
        let previous = markStopped()
        if previous.wasStopped {
            reportMisuse("Single.create sent \(event) after the Single ended; it was dropped.")
            return
        }
        if !previous.wasDisposed {
            switch event {
            case .success(let element):
                observer.onNext(element)
                observer.on(.completed)
            case .failure(let error):
                observer.on(.error(error))
            }
        }
        dispose()
    }
}

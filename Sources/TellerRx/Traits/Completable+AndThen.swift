extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Runs `second` after this completable completes, and takes its outcome.
    ///
    /// `second` is subscribed to on the thread where this completable completes. If this
    /// completable fails, `second` is never subscribed to and the result fails with the error.
    ///
    /// - Parameter second: The single to run next.
    /// - Returns: A single with `second`'s outcome.
    public func andThen<Next: Sendable>(_ second: Single<Next>) -> Single<Next> {
        Single(raw: AndThenProducer(completable: primitiveSequence.source, second: second.source))
    }

    /// Runs `second` after this completable completes, and takes its outcome.
    ///
    /// Threads and errors work as in the single-returning `andThen(_:)`.
    ///
    /// - Parameter second: The maybe to run next.
    /// - Returns: A maybe with `second`'s outcome.
    public func andThen<Next: Sendable>(_ second: Maybe<Next>) -> Maybe<Next> {
        Maybe(raw: AndThenProducer(completable: primitiveSequence.source, second: second.source))
    }

    /// Runs `second` after this completable completes, and takes its outcome.
    ///
    /// Threads and errors work as in the single-returning `andThen(_:)`.
    ///
    /// - Parameter second: The completable to run next.
    /// - Returns: A completable that succeeds when both have succeeded.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: AndThenProducer(completable: primitiveSequence.source, second: second.source))
    }

    /// Runs `second` after this completable completes, and sends its events.
    ///
    /// Threads and errors work as in the single-returning `andThen(_:)`.
    ///
    /// - Parameter second: The observable to subscribe to next.
    /// - Returns: An observable with `second`'s events.
    public func andThen<Next: Sendable>(_ second: Observable<Next>) -> Observable<Next> {
        AndThenProducer(completable: primitiveSequence.source, second: second)
    }
}

private final class AndThenProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let completable: Observable<Never>
    let second: Observable<Element>

    init(completable: Observable<Never>, second: Observable<Element>) {
        self.completable = completable
        self.second = second
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = AndThenSink(second: second, observer: observer, downstream: downstream)
        // The first subscription sits in a single-assignment slot inside the serial one, so a
        // completable that completes synchronously (and so installs `second`'s subscription)
        // before `subscribe` returns cannot be overwritten by its own late assignment.
        let first = SubscriptionSlot()
        sink.subscription.disposable = first
        completable.subscribe(sink, upstreamOf: first)
        sink.setSubscription(sink.subscription)
        return sink
    }
}

private final class AndThenSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: immutable beyond `Sink`.
    let second: Observable<Observer.Element>
    let subscription = SerialDisposable()

    init(second: Observable<Observer.Element>, observer: Observer, downstream: SubscriptionSlot?) {
        self.second = second
        super.init(observer: observer, downstream: downstream)
    }

    func on(_ event: Event<Never>) {
        switch event {
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            // Replacing the serial disposable frees the finished completable's chain.
            subscription.disposable = second.subscribe(forwarder())
        }
    }
}

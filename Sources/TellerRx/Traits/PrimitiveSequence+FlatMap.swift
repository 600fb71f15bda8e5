extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Continues with the single that `selector` makes from this single's element.
    ///
    /// `selector` runs on the thread that delivers the element; the result's outcome arrives
    /// on whatever thread the inner single delivers it. If this single fails, or `selector`
    /// throws, the result fails with that error. Disposing the result disposes whichever of the
    /// two singles is running.
    ///
    /// - Parameter selector: Makes the next single from the element.
    /// - Returns: A single with the inner single's outcome.
    public func flatMap<Result: Sendable>(
        _ selector: @escaping @Sendable (Element) throws -> Single<Result>
    ) -> Single<Result> {
        Single(raw: TraitFlatMapProducer(source: primitiveSequence.source) { try selector($0).source })
    }

    /// Continues with the maybe that `selector` makes from this single's element.
    ///
    /// Threads, errors and disposal work as in `flatMap(_:)`.
    ///
    /// - Parameter selector: Makes a maybe from the element.
    /// - Returns: A maybe with the inner maybe's outcome.
    public func flatMapMaybe<Result: Sendable>(
        _ selector: @escaping @Sendable (Element) throws -> Maybe<Result>
    ) -> Maybe<Result> {
        Maybe(raw: TraitFlatMapProducer(source: primitiveSequence.source) { try selector($0).source })
    }

    /// Continues with the completable that `selector` makes from this single's element.
    ///
    /// Threads, errors and disposal work as in `flatMap(_:)`.
    ///
    /// - Parameter selector: Makes a completable from the element.
    /// - Returns: A completable with the inner completable's outcome.
    public func flatMapCompletable(
        _ selector: @escaping @Sendable (Element) throws -> Completable
    ) -> Completable {
        Completable(raw: TraitFlatMapProducer(source: primitiveSequence.source) { try selector($0).source })
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Continues with the maybe that `selector` makes from this maybe's element; completes
    /// empty if this maybe does.
    ///
    /// `selector` runs on the thread that delivers the element; the result's outcome arrives
    /// on whatever thread the inner maybe delivers it. If this maybe fails, or `selector`
    /// throws, the result fails with that error. Disposing the result disposes whichever of the
    /// two maybes is running.
    ///
    /// - Parameter selector: Makes the next maybe from the element.
    /// - Returns: A maybe with the inner maybe's outcome.
    public func flatMap<Result: Sendable>(
        _ selector: @escaping @Sendable (Element) throws -> Maybe<Result>
    ) -> Maybe<Result> {
        Maybe(raw: TraitFlatMapProducer(source: primitiveSequence.source) { try selector($0).source })
    }
}

/// Maps the one element of a trait to an inner trait and forwards the inner trait's events.
private final class TraitFlatMapProducer<SourceElement: Sendable, Result: Sendable>: Producer<Result>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    typealias Selector = @Sendable (SourceElement) throws -> Observable<Result>

    let source: Observable<SourceElement>
    let selector: Selector

    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Result {
        let sink = TraitFlatMapSink<SourceElement, Observer>(
            selector: selector,
            observer: observer,
            downstream: downstream
        )
        let subscription = source.subscribe(sink)
        sink.setSubscription(BinaryDisposable(subscription, sink.innerSubscription))
        return sink
    }
}

private final class TraitFlatMapSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `selector` and `innerSubscription` are immutable; `innerStarted` is atomic.
    typealias Selector = @Sendable (SourceElement) throws -> Observable<Observer.Element>

    private let selector: Selector
    private let innerStarted = AtomicState(false)
    let innerSubscription = SubscriptionSlot()

    init(selector: @escaping Selector, observer: Observer, downstream: SubscriptionSlot?) {
        self.selector = selector
        super.init(observer: observer, downstream: downstream)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            // Once the inner trait runs, it alone speaks for the result: the source's own
            // `completed` (which follows its element) is expected and ignored.
            if !innerStarted.set() {
                reportMisuse("A trait sent more than one element to flatMap; the extra element was dropped.")
                return
            }
            let inner: Observable<Observer.Element>
            do {
                inner = try selector(element)
            } catch {
                forwardOn(.error(error))
                dispose()
                return
            }
            inner.subscribeEnteringTrampoline(forwarder(), upstreamOf: innerSubscription)
        case .error(let error):
            if innerStarted.isSet {
                reportMisuse("A trait failed after sending its element to flatMap; the error was dropped.")
                return
            }
            forwardOn(.error(error))
            dispose()
        case .completed:
            if innerStarted.isSet { return }
            forwardOn(.completed)
            dispose()
        }
    }
}

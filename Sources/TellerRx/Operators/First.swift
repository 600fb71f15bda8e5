extension ObservableType {
    /// Sends the first element of the source (or `nil` if it completes empty), then completes
    /// and disposes the source.
    ///
    /// Internal: RxSwift 6's public `first()` returns a `Single<Element?>`, which wraps this
    /// observable. A source error before the first element is forwarded. Events are sent on the
    /// thread that delivers the source event.
    ///
    /// - Returns: An observable of exactly one optional element, or an error.
    /// The first element of the source, or `nil` if it completes without one, as a `Single`.
    ///
    /// Subscribing subscribes to the source; the source is disposed as soon as the first
    /// element arrives. A source error before the first element fails the `Single`. The result
    /// is sent on the thread that delivers the source event.
    ///
    /// - Returns: A `Single` of the first element, or `nil` for an empty source.
    public func first() -> Single<Element?> {
        PrimitiveSequence(raw: firstObservable())
    }

    func firstObservable() -> Observable<Element?> {
        FirstProducer(source: asObservable())
    }
}

private final class FirstProducer<Element: Sendable>: Producer<Element?>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element? {
        let sink = FirstSink<Element, Observer>(observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class FirstSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == Element? {
    // @unchecked: `isDone` is touched only from `on(_:)`, which the source calls serially.

    /// Set before forwarding, so an element sent re-entrantly from downstream is dropped.
    private var isDone = false

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        guard !isDone else { return }
        isDone = true
        forwardNext(element)
        forwardTerminal(.completed)
    }

    func on(_ event: Event<Element>) {
        if case .next(let element) = event {
            onNext(element)
            return
        }
        guard !isDone else { return }
        isDone = true
        switch event {
        case .next:
            break
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardOn(.next(nil))
            forwardOn(.completed)
        }
        dispose()
    }
}

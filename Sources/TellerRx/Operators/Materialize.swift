extension ObservableType {
    /// Wraps every event of the source, terminal ones included, in a `next` element.
    ///
    /// The result never fails: a source error arrives as a `next(.error(e))` element, followed
    /// by `completed`; source completion arrives as `next(.completed)`, then `completed`.
    /// Events are sent on the thread that delivers the source event.
    /// ``ObservableType/dematerialize()`` reverses it.
    ///
    /// ```swift
    /// Observable.of(1, 2).materialize()
    /// // Prints: next(next(1)), next(next(2)), next(completed), completed
    /// ```
    ///
    /// - Returns: An observable of the source's events.
    public func materialize() -> Observable<Event<Element>> {
        MaterializeProducer(source: asObservable())
    }
}

private final class MaterializeProducer<SourceElement: Sendable>: Producer<Event<SourceElement>>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    let source: Observable<SourceElement>

    init(source: Observable<SourceElement>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Event<SourceElement> {
        let sink = MaterializeSink<SourceElement, Observer>(observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class MaterializeSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element == Event<SourceElement> {
    // @unchecked: nothing beyond `Sink`.

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: SourceElement) {
        forwardNext(.next(element))
    }

    func on(_ event: Event<SourceElement>) {
        forwardOn(.next(event))
        if event.isStopEvent {
            forwardOn(.completed)
            dispose()
        }
    }
}

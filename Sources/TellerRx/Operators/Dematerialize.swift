extension ObservableType where Element: EventConvertible, Element.Element: Sendable {
    /// Turns a sequence of events back into the sequence they describe; the reverse of
    /// ``ObservableType/materialize()``.
    ///
    /// A `next(.next(x))` element is sent as `next(x)`. A `next(.error(e))` or
    /// `next(.completed)` element ends the result with that event and disposes the source.
    /// An error of the source itself is forwarded; if the source completes without a terminal
    /// event element, the result completes too. Events are sent on the thread that delivers
    /// the source element.
    ///
    /// - Returns: An observable of the described events.
    public func dematerialize() -> Observable<Element.Element> {
        DematerializeProducer(source: asObservable())
    }
}

private final class DematerializeProducer<SourceElement: EventConvertible & Sendable>:
    Producer<SourceElement.Element>, @unchecked Sendable
where SourceElement.Element: Sendable {
    // @unchecked: immutable.
    let source: Observable<SourceElement>

    init(source: Observable<SourceElement>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == SourceElement.Element {
        let sink = DematerializeSink<SourceElement, Observer>(observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class DematerializeSink<SourceElement: EventConvertible, Observer: ObserverType>: Sink<Observer>,
    ObserverType, @unchecked Sendable
where Observer.Element == SourceElement.Element {
    // @unchecked: nothing beyond `Sink`.

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: SourceElement) {
        let inner = element.event
        forwardOn(inner)
        if inner.isStopEvent {
            dispose()
        }
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

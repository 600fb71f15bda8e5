extension ObservableType {
    /// Collects every element and sends them as one array when the source completes.
    ///
    /// Internal: RxSwift 6's public `toArray()` returns a `Single<[Element]>`, which wraps this
    /// observable. A source error is forwarded and the collected elements are dropped. The
    /// array is sent on the thread that delivers completion.
    ///
    /// - Returns: An observable of one array, or an error.
    /// Collects every element and sends them as one array, as a `Single`, when the source
    /// completes. A source error fails the `Single` and the collected elements are dropped.
    ///
    /// The array is sent on the thread that delivers the source's completion.
    ///
    /// - Returns: A `Single` of all the source's elements, in order.
    public func toArray() -> Single<[Element]> {
        PrimitiveSequence(raw: toArrayObservable())
    }

    func toArrayObservable() -> Observable<[Element]> {
        ToArrayProducer(source: asObservable())
    }
}

private final class ToArrayProducer<Element: Sendable>: Producer<[Element]>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == [Element] {
        let sink = ToArraySink<Element, Observer>(observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class ToArraySink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == [Element] {
    // @unchecked: `elements` is touched only from `on(_:)`, which the source calls serially.

    private var elements: [Element] = []

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        elements.append(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            elements = []
            forwardOn(.error(error))
            dispose()
        case .completed:
            let result = elements
            elements = []
            forwardOn(.next(result))
            forwardOn(.completed)
            dispose()
        }
    }
}

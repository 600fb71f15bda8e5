extension ObservableType {
    /// Pairs each element with its index: the first element of each subscription has index 0.
    ///
    /// Events are sent on the thread that delivers the source event. The count starts again
    /// from 0 for every subscription. If the index would overflow `Int`, the result fails with
    /// ``RxError/overflow``.
    ///
    /// ```swift
    /// Observable.of("a", "b").enumerated()
    /// // Prints: next((index: 0, element: "a")), next((index: 1, element: "b")), completed
    /// ```
    ///
    /// - Returns: An observable of `(index, element)` pairs.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        EnumeratedProducer(source: asObservable())
    }
}

private final class EnumeratedProducer<SourceElement: Sendable>: Producer<
    (index: Int, element: SourceElement)
>, @unchecked Sendable
{
    // @unchecked: immutable.
    let source: Observable<SourceElement>

    init(source: Observable<SourceElement>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable
    where Observer.Element == (index: Int, element: SourceElement) {
        let sink = EnumeratedSink<SourceElement, Observer>(observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class EnumeratedSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element == (index: Int, element: SourceElement) {
    // @unchecked: `index` is touched only from `on(_:)`, which the source calls serially.
    private var index = 0

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: SourceElement) {
        guard !isDisposed else { return }
        let current = index
        let (next, overflow) = index.addingReportingOverflow(1)
        guard !overflow else {
            forwardErrorAndDispose(RxError.overflow)
            return
        }
        index = next
        forwardNext((index: current, element: element))
    }

    func on(_ event: Event<SourceElement>) {
        guard !isDisposed else { return }
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

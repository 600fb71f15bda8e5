extension ObservableType {
    /// Drops every element and forwards only the terminal event.
    ///
    /// As in RxSwift 6 it returns an `Observable<Never>`; add `asCompletable()` for a
    /// ``Completable``. The terminal event is sent on the thread that delivers it from the source.
    ///
    /// ```swift
    /// let saved: Completable = upload(file).ignoreElements().asCompletable()
    /// ```
    ///
    /// - Returns: An observable that sends only the source's `error` or `completed`.
    public func ignoreElements() -> Observable<Never> {
        IgnoreElementsProducer(source: asObservable())
    }
}

private final class IgnoreElementsProducer<SourceElement: Sendable>: Producer<Never>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<SourceElement>

    init(source: Observable<SourceElement>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Never {
        let sink = IgnoreElementsSink<SourceElement, Observer>(observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class IgnoreElementsSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element == Never {
    // @unchecked: nothing beyond `Sink`.

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: SourceElement) {}

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next:
            break
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

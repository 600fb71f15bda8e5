extension ObservableType {
    /// Transforms each element with `transform` and passes on the non-`nil` results.
    ///
    /// `transform` runs synchronously on the thread that delivers each element. If it throws,
    /// the error is sent downstream and the source subscription is disposed.
    ///
    /// ```swift
    /// Observable.of("1", "x", "3").compactMap { Int($0) }
    /// // Prints: next(1), next(3), completed
    /// ```
    ///
    /// - Parameter transform: Applied to each element; returns `nil` to drop it.
    /// - Returns: An observable of the non-`nil` transformed elements.
    public func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result?
    ) -> Observable<Result> {
        CompactMapProducer(source: asObservable(), transform: transform)
    }
}

private final class CompactMapProducer<SourceElement: Sendable, Result: Sendable>: Producer<Result>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    typealias Transform = @Sendable (SourceElement) throws -> Result?

    let source: Observable<SourceElement>
    let transform: Transform

    init(source: Observable<SourceElement>, transform: @escaping Transform) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Result {
        let sink = CompactMapSink<SourceElement, Observer>(
            transform: transform,
            observer: observer,
            downstream: downstream
        )
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class CompactMapSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
{
    // @unchecked: immutable beyond `Sink`.
    typealias Transform = @Sendable (SourceElement) throws -> Observer.Element?

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, downstream: SubscriptionSlot?) {
        self.transform = transform
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built: in unspecialized generic code each
    /// `Event` costs a run-time type-metadata lookup, and this sink sits on every repository's
    /// `observe()` delivery.
    func onNext(_ element: SourceElement) {
        // After a terminal event a synchronous source may still be mid-loop; don't run user code.
        guard !isDisposed else { return }
        do {
            if let result = try transform(element) {
                forwardNext(result)
            }
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            guard !isDisposed else { return }
            forwardOn(.error(error))
            dispose()
        case .completed:
            guard !isDisposed else { return }
            forwardOn(.completed)
            dispose()
        }
    }

}

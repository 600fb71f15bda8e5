extension ObservableType {
    /// Transforms each element with `transform`.
    ///
    /// `transform` runs synchronously on the thread that delivers each element. If it throws,
    /// the error is sent downstream and the source subscription is disposed.
    ///
    /// - Parameter transform: Applied to each element.
    /// - Returns: An observable of the transformed elements.
    @inlinable
    public func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result
    ) -> Observable<Result> {
        MapProducer(source: asObservable(), transform: transform)
    }
}

// Internal and `@usableFromInline`, with an `@inlinable` operator method, so the call site
// builds it with its concrete types: unspecialized generic code would look up the producer's
// type metadata at run time on every call.
@usableFromInline
final class MapProducer<SourceElement: Sendable, Result: Sendable>: Producer<Result>, @unchecked Sendable {
    // @unchecked: immutable.
    @usableFromInline
    typealias Transform = @Sendable (SourceElement) throws -> Result

    let source: Observable<SourceElement>
    let transform: Transform

    @usableFromInline
    init(source: Observable<SourceElement>, transform: @escaping Transform) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Result {
        let sink = MapSink<SourceElement, Result, Observer>(transform: transform, observer: observer)
        sink.wire(to: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

/// Generic over `Result` as well as `Observer` (with `Observer.Element == Result`) so the result's
/// type metadata comes with the class instead of from a lookup through `Observer` per element.
private final class MapSink<SourceElement, Result, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element == Result {
    // @unchecked: immutable beyond `Sink`.
    typealias Transform = @Sendable (SourceElement) throws -> Result

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer) {
        self.transform = transform
        super.init(observer: observer)
    }

    @inline(__always)
    func onNext(_ element: SourceElement) {
        do {
            forwardNext(try transform(element))
        } catch {
            forwardErrorAndDispose(error)
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

extension ObservableType {
    /// Transforms each element with `transform`.
    ///
    /// `transform` runs synchronously on the thread that delivers each element. If it throws,
    /// the error is sent downstream and the source subscription is disposed.
    ///
    /// - Parameter transform: Applied to each element.
    /// - Returns: An observable of the transformed elements.
    public func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result
    ) -> Observable<Result> {
        MapProducer(source: asObservable(), transform: transform)
    }
}

private final class MapProducer<SourceElement: Sendable, Result: Sendable>: Producer<Result>, @unchecked Sendable {
    // @unchecked: immutable.
    typealias Transform = @Sendable (SourceElement) throws -> Result

    let source: Observable<SourceElement>
    let transform: Transform

    init(source: Observable<SourceElement>, transform: @escaping Transform) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        cancel: any Cancelable
    ) -> (sink: any Disposable, subscription: any Disposable) where Observer.Element == Result {
        let sink = MapSink<SourceElement, Observer>(transform: transform, observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

private final class MapSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
{
    // @unchecked: immutable beyond `Sink`.
    typealias Transform = @Sendable (SourceElement) throws -> Observer.Element

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, cancel: any Cancelable) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            do {
                forwardOn(.next(try transform(element)))
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

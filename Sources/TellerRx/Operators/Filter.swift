extension ObservableType {
    /// Passes on only the elements that satisfy `predicate`.
    ///
    /// `predicate` runs synchronously on the thread that delivers each element. If it throws,
    /// the error is sent downstream and the source subscription is disposed.
    ///
    /// - Parameter predicate: Returns `true` for elements to keep.
    /// - Returns: An observable of the elements that passed.
    @inlinable
    public func filter(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Observable<Element> {
        FilterProducer(source: asObservable(), predicate: predicate)
    }
}

// Internal and `@usableFromInline`, with an `@inlinable` operator method, so the call site
// builds it with its concrete types: unspecialized generic code would look up the producer's
// type metadata at run time on every call.
@usableFromInline
final class FilterProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    @usableFromInline
    typealias Predicate = @Sendable (Element) throws -> Bool

    let source: Observable<Element>
    let predicate: Predicate

    @usableFromInline
    init(source: Observable<Element>, predicate: @escaping Predicate) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = FilterSink<Element, Observer>(predicate: predicate, observer: observer)
        sink.wire(to: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

/// Generic over `Element` as well as `Observer` so the element's type metadata comes with the
/// class instead of from a lookup through `Observer` per element.
private final class FilterSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element == Element {
    // @unchecked: immutable beyond `Sink`.
    typealias Predicate = @Sendable (Element) throws -> Bool

    private let predicate: Predicate

    init(predicate: @escaping Predicate, observer: Observer) {
        self.predicate = predicate
        super.init(observer: observer)
    }

    @inline(__always)
    func onNext(_ element: Element) {
        let passes: Bool
        do {
            passes = try predicate(element)
        } catch {
            forwardErrorAndDispose(error)
            return
        }
        if passes {
            forwardNext(element)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forwardTerminal(event)
        }
    }
}

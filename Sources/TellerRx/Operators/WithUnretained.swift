extension ObservableType {
    /// Pairs each element with `obj`, without keeping `obj` alive, and combines them with
    /// `resultSelector`; completes once `obj` is gone.
    ///
    /// `obj` is held weakly. For each element, if `obj` is still alive, `resultSelector` runs
    /// with it on the thread that delivered the element and its result is sent; if `obj` has
    /// been deallocated, the result completes instead (as in RxSwift 6) and the source
    /// subscription is disposed. Errors and completion pass through. `Object` must be
    /// `Sendable`, because `resultSelector` may run on any thread.
    ///
    /// - Parameters:
    ///   - obj: The object to pair with each element, held weakly.
    ///   - resultSelector: Combines `obj` with each element.
    /// - Returns: An observable of the combined values, ending when `obj` is gone.
    public func withUnretained<Object: AnyObject & Sendable, Out: Sendable>(
        _ obj: Object,
        resultSelector: @escaping @Sendable (Object, Element) -> Out
    ) -> Observable<Out> {
        WithUnretainedProducer(source: asObservable(), object: obj, resultSelector: resultSelector)
    }

    /// Pairs each element with `obj` in a tuple, without keeping `obj` alive; completes once
    /// `obj` is gone.
    ///
    /// Behaves as ``withUnretained(_:resultSelector:)`` with a selector that makes the tuple.
    ///
    /// ```swift
    /// button.taps
    ///     .withUnretained(self)
    ///     .subscribe(onNext: { owner, _ in owner.save() })
    ///     .disposed(by: disposeBag)
    /// ```
    ///
    /// - Parameter obj: The object to pair with each element, held weakly.
    /// - Returns: An observable of `(obj, element)` tuples, ending when `obj` is gone.
    public func withUnretained<Object: AnyObject & Sendable>(_ obj: Object) -> Observable<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

private final class WithUnretainedProducer<SourceElement: Sendable, Object: AnyObject & Sendable, Out: Sendable>:
    Producer<Out>, @unchecked Sendable
{
    // @unchecked: immutable; `object` is only written by `init` (weak loads are thread-safe).
    typealias Selector = @Sendable (Object, SourceElement) -> Out

    let source: Observable<SourceElement>
    weak var object: Object?
    let resultSelector: Selector

    init(source: Observable<SourceElement>, object: Object, resultSelector: @escaping Selector) {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Out {
        let sink = WithUnretainedSink<SourceElement, Object, Observer>(
            object: object,
            resultSelector: resultSelector,
            observer: observer,
            downstream: downstream
        )
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class WithUnretainedSink<SourceElement, Object: AnyObject & Sendable, Observer: ObserverType>:
    Sink<Observer>, ObserverType, @unchecked Sendable
{
    // @unchecked: `object` is only written by `init` (weak loads are thread-safe); the rest is
    // immutable beyond `Sink`.
    typealias Selector = @Sendable (Object, SourceElement) -> Observer.Element

    private weak var object: Object?
    private let resultSelector: Selector

    init(object: Object?, resultSelector: @escaping Selector, observer: Observer, downstream: SubscriptionSlot?) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer, downstream: downstream)
    }

    func onNext(_ element: SourceElement) {
        guard let object else {
            // The object is gone: nothing more can be paired with it.
            forwardOn(.completed)
            dispose()
            return
        }
        forwardNext(resultSelector(object, element))
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

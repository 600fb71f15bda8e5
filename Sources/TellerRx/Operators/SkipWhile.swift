extension ObservableType {
    /// Drops elements while `predicate` returns `true`; from the first element for which it
    /// returns `false`, sends that element and all that follow.
    ///
    /// `predicate` runs synchronously on the thread that delivers each element, and is not
    /// called again once it has returned `false`. If it throws, the error is sent downstream
    /// and the source subscription is disposed.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 1).skip(while: { $0 < 3 })
    /// // Prints: next(3), next(1), completed
    /// ```
    ///
    /// - Parameter predicate: Returns `true` for leading elements to drop.
    /// - Returns: An observable of the elements from the first one that fails `predicate`.
    public func skip(while predicate: @escaping @Sendable (Element) throws -> Bool) -> Observable<Element> {
        SkipWhileProducer(source: asObservable(), predicate: predicate)
    }

    /// The RxSwift 5 spelling of ``ObservableType/skip(while:)``.
    ///
    /// - Parameter predicate: Returns `true` for leading elements to drop.
    /// - Returns: An observable of the elements from the first one that fails `predicate`.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }
}

private final class SkipWhileProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    typealias Predicate = @Sendable (Element) throws -> Bool

    let source: Observable<Element>
    let predicate: Predicate

    init(source: Observable<Element>, predicate: @escaping Predicate) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = SkipWhileSink(predicate: predicate, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class SkipWhileSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: `isSkipping` is touched only from `on(_:)`, which the source calls serially.
    typealias Element = Observer.Element
    typealias Predicate = @Sendable (Element) throws -> Bool

    private let predicate: Predicate
    private var isSkipping = true

    init(predicate: @escaping Predicate, observer: Observer, downstream: SubscriptionSlot?) {
        self.predicate = predicate
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        if isSkipping {
            // After a terminal event a synchronous source may still be mid-loop; don't run user code.
            guard !isDisposed else { return }
            do {
                isSkipping = try predicate(element)
            } catch {
                forwardErrorAndDispose(error)
                return
            }
            if isSkipping { return }
        }
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

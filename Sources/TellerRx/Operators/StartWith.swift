extension ObservableType {
    /// Sends `elements` first, then subscribes to the source and sends its events.
    ///
    /// The elements are sent synchronously on the subscribing thread, before the source is
    /// subscribed to (as in RxSwift); the source's events follow on whatever thread it uses.
    ///
    /// ```swift
    /// Observable.of(3, 4).startWith(1, 2)
    /// // Prints: next(1), next(2), next(3), next(4), completed
    /// ```
    ///
    /// - Parameter elements: The elements to send before the source's.
    /// - Returns: An observable of `elements` followed by the source's events.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWithProducer(source: asObservable(), elements: elements)
    }
}

private final class StartWithProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let elements: [Element]

    init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
    }

    // No sink of its own: the observer receives the elements directly and is then handed to
    // the source, so `startWith` adds nothing per event and one less object per subscription.
    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        for element in elements {
            observer.onNext(element)
        }
        guard let downstream else {
            return source.subscribe(observer)
        }
        source.subscribe(observer, upstreamOf: downstream)
        return Disposables.create()
    }
}

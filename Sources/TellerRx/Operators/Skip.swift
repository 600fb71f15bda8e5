extension ObservableType {
    /// Drops the first `count` elements of the source and sends the rest.
    ///
    /// Events are sent on the thread that delivers the source event. A `count` of zero or less
    /// drops nothing (as in RxSwift).
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).skip(2)
    /// // Prints: next(3), completed
    /// ```
    ///
    /// - Parameter count: How many leading elements to drop.
    /// - Returns: An observable of the elements after the first `count`.
    public func skip(_ count: Int) -> Observable<Element> {
        SkipCountProducer(source: asObservable(), count: count)
    }
}

private final class SkipCountProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = SkipCountSink(remaining: count, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class SkipCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: `remaining` is touched only from `on(_:)`, which the source calls serially.
    typealias Element = Observer.Element

    private var remaining: Int

    init(remaining: Int, observer: Observer, downstream: SubscriptionSlot?) {
        self.remaining = remaining
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        if remaining > 0 {
            remaining -= 1
        } else {
            forwardNext(element)
        }
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

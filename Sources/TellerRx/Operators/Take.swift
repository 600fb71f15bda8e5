extension ObservableType {
    /// Sends the first `count` elements of the source, then completes and disposes the source.
    ///
    /// Events are sent on the thread that delivers the source event. `take(0)` completes at
    /// once without subscribing to the source. A negative `count` is a programming error: the
    /// result fails with ``RxError/argumentOutOfRange`` (and debug builds print a warning).
    ///
    /// ```swift
    /// Observable.repeatElement("a").take(2)
    /// // Prints: next(a), next(a), completed
    /// ```
    ///
    /// - Parameter count: How many elements to send.
    /// - Returns: An observable of at most `count` elements.
    public func take(_ count: Int) -> Observable<Element> {
        if count == 0 {
            return Observable.empty()
        }
        if count < 0 {
            reportMisuse("take(_:) was called with a negative count (\(count)); it fails with argumentOutOfRange.")
            return Observable.error(RxError.argumentOutOfRange)
        }
        return TakeCountProducer(source: asObservable(), count: count)
    }
}

private final class TakeCountProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
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
        let sink = TakeCountSink(remaining: count, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class TakeCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
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
        // Counted down before forwarding, so an element sent re-entrantly from downstream sees
        // the updated count.
        guard remaining > 0 else { return }
        remaining -= 1
        forwardNext(element)
        if remaining == 0 {
            forwardOn(.completed)
            dispose()
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

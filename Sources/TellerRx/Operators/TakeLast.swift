extension ObservableType {
    /// Sends the last `count` elements of the source when it completes, then completes.
    ///
    /// Nothing is sent before the source completes; the elements are then sent in order, on
    /// the thread that delivered completion. A source error is forwarded and the buffered
    /// elements are dropped. Memory holds at most `count` elements. A negative `count` is a
    /// programming error: the result fails with ``RxError/argumentOutOfRange`` (and debug
    /// builds print a warning).
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 4).takeLast(2)
    /// // Prints: next(3), next(4), completed
    /// ```
    ///
    /// - Parameter count: How many of the last elements to send.
    /// - Returns: An observable of at most `count` elements, sent at completion.
    public func takeLast(_ count: Int) -> Observable<Element> {
        if count < 0 {
            reportMisuse("takeLast(_:) was called with a negative count (\(count)); it fails with argumentOutOfRange.")
            return Observable.error(RxError.argumentOutOfRange)
        }
        return TakeLastProducer(source: asObservable(), count: count)
    }
}

private final class TakeLastProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
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
        let sink = TakeLastSink(count: count, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class TakeLastSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: `buffer` is touched only from `on(_:)`, which the source calls serially.
    typealias Element = Observer.Element

    /// The last `count` elements; a full buffer costs no allocation per element.
    private var buffer: RingBuffer<Element>

    init(count: Int, observer: Observer, downstream: SubscriptionSlot?) {
        buffer = RingBuffer(capacity: count)
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        buffer.append(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error:
            buffer.removeAll()
            forwardOn(event)
            dispose()
        case .completed:
            let elements = buffer
            buffer.removeAll()
            elements.forEach { forwardNext($0) }
            forwardOn(.completed)
            dispose()
        }
    }
}

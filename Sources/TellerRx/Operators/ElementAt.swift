extension ObservableType {
    /// Sends only the element at `index` (counting from zero), then completes and disposes the
    /// source.
    ///
    /// If the source completes before reaching `index`, the result fails with
    /// ``RxError/argumentOutOfRange``. A source error before `index` is forwarded. A negative
    /// `index` is a programming error: the result fails with ``RxError/argumentOutOfRange`` at
    /// once (and debug builds print a warning). Events are sent on the thread that delivers the
    /// source event.
    ///
    /// ```swift
    /// Observable.of("a", "b", "c").element(at: 1)
    /// // Prints: next(b), completed
    /// ```
    ///
    /// - Parameter index: The zero-based position of the element to send.
    /// - Returns: An observable of one element.
    public func element(at index: Int) -> Observable<Element> {
        if index < 0 {
            reportMisuse("element(at:) was called with a negative index (\(index)); it fails with argumentOutOfRange.")
            return Observable.error(RxError.argumentOutOfRange)
        }
        return ElementAtProducer(source: asObservable(), index: index)
    }

    /// The RxSwift 5 spelling of ``ObservableType/element(at:)``.
    ///
    /// - Parameter index: The zero-based position of the element to send.
    /// - Returns: An observable of one element.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }
}

private final class ElementAtProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let index: Int

    init(source: Observable<Element>, index: Int) {
        self.source = source
        self.index = index
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = ElementAtSink(remaining: index, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class ElementAtSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: `remaining` is touched only from `on(_:)`, which the source calls serially.
    typealias Element = Observer.Element

    /// Elements still to drop before the one to send; -1 once it was sent.
    private var remaining: Int

    init(remaining: Int, observer: Observer, downstream: SubscriptionSlot?) {
        self.remaining = remaining
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        // Once the element was sent, anything the source sends re-entrantly is dropped.
        guard remaining >= 0 else { return }
        if remaining > 0 {
            remaining -= 1
            return
        }
        remaining = -1
        forwardNext(element)
        forwardTerminal(.completed)
    }

    func on(_ event: Event<Element>) {
        // Once the element was sent, anything the source sends re-entrantly is dropped.
        guard remaining >= 0 else { return }
        switch event {
        case .next(let element):
            onNext(element)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(.error(RxError.argumentOutOfRange))
            dispose()
        }
    }
}

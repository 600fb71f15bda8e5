extension ObservableType {
    /// Passes on the source's only element, and fails unless the source sends exactly one.
    ///
    /// Unlike ``asSingle()`` this stays an `Observable` and sends the element as soon as it
    /// arrives, on the source's thread. A second element fails the result with
    /// ``RxError/moreThanOneElement`` at once (and disposes the source); completing without an
    /// element fails it with ``RxError/noElements``. The source's own error passes through.
    ///
    /// ```swift
    /// Observable.of(1, 2).single()
    /// // Prints: next(1), error(moreThanOneElement)
    /// ```
    ///
    /// - Returns: An observable of the one element, then completion, or the error above.
    public func single() -> Observable<Element> {
        SingleElementProducer(source: asObservable(), predicate: nil)
    }

    /// Passes on the only element that satisfies `predicate`, and fails unless exactly one does.
    ///
    /// Elements for which `predicate` returns `false` are dropped. The first matching element
    /// is sent at once, on the source's thread; a second one fails the result with
    /// ``RxError/moreThanOneElement`` (and disposes the source); completing without a match
    /// fails it with ``RxError/noElements``. `predicate` runs synchronously on the thread that
    /// delivers each element; if it throws, the error is sent downstream and the source is
    /// disposed.
    ///
    /// - Parameter predicate: Decides which elements count.
    /// - Returns: An observable of the one matching element, then completion, or an error.
    public func single(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Observable<Element> {
        SingleElementProducer(source: asObservable(), predicate: predicate)
    }
}

private final class SingleElementProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    typealias Predicate = @Sendable (Element) throws -> Bool

    let source: Observable<Element>
    let predicate: Predicate?

    init(source: Observable<Element>, predicate: Predicate?) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = SingleElementSink(predicate: predicate, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class SingleElementSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: `hasSeenElement` is touched only from `on(_:)`, which the source calls serially.
    typealias Element = Observer.Element
    typealias Predicate = @Sendable (Element) throws -> Bool

    private let predicate: Predicate?
    private var hasSeenElement = false

    init(predicate: Predicate?, observer: Observer, downstream: SubscriptionSlot?) {
        self.predicate = predicate
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        // After a terminal event a synchronous source may still be mid-loop; don't run user code.
        guard !isDisposed else { return }
        if let predicate {
            do {
                guard try predicate(element) else { return }
            } catch {
                forwardErrorAndDispose(error)
                return
            }
        }
        guard !hasSeenElement else {
            forwardErrorAndDispose(RxError.moreThanOneElement)
            return
        }
        hasSeenElement = true
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        // After a terminal event a synchronous source may still be mid-loop; don't run user code.
        guard !isDisposed else { return }
        switch event {
        case .next(let element):
            onNext(element)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(hasSeenElement ? .completed : .error(RxError.noElements))
            dispose()
        }
    }
}

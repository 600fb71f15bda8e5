extension ObservableType {
    /// Continues with the sequence `handler` returns when this sequence fails.
    ///
    /// Elements and completion pass through. On an error, `handler` runs on the thread that
    /// delivered the error, its sequence is subscribed there (then the failed source
    /// subscription is disposed), and its events follow. If `handler` throws, that error is
    /// sent downstream instead.
    ///
    /// ```swift
    /// let recovered = Observable<Int>.error(MyError()).catch { _ in .just(0) }
    /// // Sends 0, then completes.
    /// ```
    ///
    /// - Parameter handler: Given the error, returns the sequence to continue with.
    /// - Returns: The source's elements, followed by the handler's sequence if the source fails.
    public func `catch`(_ handler: @escaping @Sendable (any Error) throws -> Observable<Element>) -> Observable<Element>
    {
        CatchProducer(source: asObservable(), handler: handler)
    }

    /// Ends with `element` instead of failing: on an error, sends `element` and completes.
    ///
    /// - Parameter element: The last element sent if the source fails.
    /// - Returns: The source's elements, followed by `element` and completion if the source fails.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        CatchProducer(source: asObservable()) { _ in Observable.just(element) }
    }

    /// The RxSwift 5 spelling of ``ObservableType/catch(_:)``; identical behaviour.
    ///
    /// - Parameter handler: Given the error, returns the sequence to continue with.
    /// - Returns: The source's elements, followed by the handler's sequence if the source fails.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(
        _ handler: @escaping @Sendable (any Error) throws -> Observable<Element>
    ) -> Observable<Element> {
        `catch`(handler)
    }

    /// The RxSwift 5 spelling of ``ObservableType/catchAndReturn(_:)``; identical behaviour.
    ///
    /// - Parameter element: The last element sent if the source fails.
    /// - Returns: The source's elements, followed by `element` and completion if the source fails.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }
}

private final class CatchProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    typealias Handler = @Sendable (any Error) throws -> Observable<Element>

    let source: Observable<Element>
    let handler: Handler

    init(source: Observable<Element>, handler: @escaping Handler) {
        self.source = source
        self.handler = handler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, downstream: downstream)
        sink.run(source)
        return sink
    }
}

private final class CatchSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `handler` is immutable; `subscription` is thread-safe.
    typealias Element = Observer.Element

    private let handler: CatchProducer<Element>.Handler
    private let subscription = SerialDisposable()

    init(handler: @escaping CatchProducer<Element>.Handler, observer: Observer, downstream: SubscriptionSlot?) {
        self.handler = handler
        super.init(observer: observer, downstream: downstream)
    }

    /// Subscribes `source`, wired as this sink's upstream first.
    func run(_ source: Observable<Element>) {
        setSubscription(subscription)
        // Installed before subscribing, so a source that fails synchronously has its
        // replacement stored after it, not overwritten by it.
        let first = SubscriptionSlot()
        subscription.disposable = first
        source.subscribe(self, upstreamOf: first)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            let replacement: Observable<Element>
            do {
                replacement = try handler(error)
            } catch {
                forwardOn(.error(error))
                dispose()
                return
            }
            subscription.disposable = replacement.subscribe(forwarder())
        }
    }
}

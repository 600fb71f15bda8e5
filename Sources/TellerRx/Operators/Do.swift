extension ObservableType {
    /// Runs side effects around each event and around subscription and disposal, passing the
    /// events through unchanged.
    ///
    /// The event closures run on the thread that delivers the event: `onNext`, `onError` and
    /// `onCompleted` just before the event is sent downstream, `afterNext`, `afterError` and
    /// `afterCompleted` just after. `onSubscribe` runs on the subscribing thread before the
    /// source is subscribed, `onSubscribed` after that subscription returns (so after any
    /// events the source sends synchronously). `onDispose` runs once, after the source
    /// subscription is disposed, whether by the subscriber or because the sequence ended.
    ///
    /// If `onNext`, `afterNext` or `onError` throws, that error is sent downstream instead and
    /// the source subscription is disposed. If `afterError` or `afterCompleted` throws, the
    /// sequence has already ended: the error is dropped (and reported in debug builds).
    ///
    /// ```swift
    /// _ = Observable.just(1)
    ///     .do(onNext: { print("will send", $0) }, afterNext: { print("sent", $0) })
    ///     .subscribe(onNext: { print("got", $0) })
    /// // Prints: will send 1, got 1, sent 1
    /// ```
    ///
    /// - Parameters:
    ///   - onNext: Runs before each element is sent downstream.
    ///   - afterNext: Runs after each element was sent downstream.
    ///   - onError: Runs before the error is sent downstream.
    ///   - afterError: Runs after the error was sent downstream.
    ///   - onCompleted: Runs before completion is sent downstream.
    ///   - afterCompleted: Runs after completion was sent downstream.
    ///   - onSubscribe: Runs before the source is subscribed.
    ///   - onSubscribed: Runs after the source was subscribed.
    ///   - onDispose: Runs after the source subscription was disposed.
    /// - Returns: An observable with the same events.
    public func `do`(
        onNext: (@Sendable (Element) throws -> Void)? = nil,
        afterNext: (@Sendable (Element) throws -> Void)? = nil,
        onError: (@Sendable (any Error) throws -> Void)? = nil,
        afterError: (@Sendable (any Error) throws -> Void)? = nil,
        onCompleted: (@Sendable () throws -> Void)? = nil,
        afterCompleted: (@Sendable () throws -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Observable<Element> {
        DoProducer(
            source: asObservable(),
            handlers: DoHandlers(
                onNext: onNext,
                afterNext: afterNext,
                onError: onError,
                afterError: afterError,
                onCompleted: onCompleted,
                afterCompleted: afterCompleted
            ),
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        )
    }
}

/// The per-event closures of `do`, shared by every subscription.
private struct DoHandlers<Element>: Sendable {
    let onNext: (@Sendable (Element) throws -> Void)?
    let afterNext: (@Sendable (Element) throws -> Void)?
    let onError: (@Sendable (any Error) throws -> Void)?
    let afterError: (@Sendable (any Error) throws -> Void)?
    let onCompleted: (@Sendable () throws -> Void)?
    let afterCompleted: (@Sendable () throws -> Void)?
}

private final class DoProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let handlers: DoHandlers<Element>
    let onSubscribe: (@Sendable () -> Void)?
    let onSubscribed: (@Sendable () -> Void)?
    let onDispose: (@Sendable () -> Void)?

    init(
        source: Observable<Element>,
        handlers: DoHandlers<Element>,
        onSubscribe: (@Sendable () -> Void)?,
        onSubscribed: (@Sendable () -> Void)?,
        onDispose: (@Sendable () -> Void)?
    ) {
        self.source = source
        self.handlers = handlers
        self.onSubscribe = onSubscribe
        self.onSubscribed = onSubscribed
        self.onDispose = onDispose
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        onSubscribe?()
        let sink = DoSink(handlers: handlers, observer: observer, downstream: downstream)
        guard let onDispose else {
            source.subscribe(sink, upstreamOf: sink)
            onSubscribed?()
            return sink
        }
        // Wired before subscribing, so disposing the sink reaches a synchronous source while it
        // sends. `onDispose` runs once, after the source's subscription is disposed, and never
        // before `onSubscribed` (as in RxSwift): its slot gets it only after that, and runs it
        // then if the sink has ended meanwhile.
        let upstream = SubscriptionSlot()
        let onDisposeSlot = SubscriptionSlot()
        sink.setSubscription(Disposables.create(upstream, onDisposeSlot))
        source.subscribe(sink, upstreamOf: upstream)
        onSubscribed?()
        onDisposeSlot.setSubscription(Disposables.create(with: onDispose))
        return sink
    }
}

private final class DoSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: immutable beyond `Sink`.
    typealias Element = Observer.Element

    private let handlers: DoHandlers<Element>

    init(handlers: DoHandlers<Element>, observer: Observer, downstream: SubscriptionSlot?) {
        self.handlers = handlers
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        if isDisposed { return }
        do {
            try handlers.onNext?(element)
            forwardNext(element)
            try handlers.afterNext?(element)
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<Element>) {
        if isDisposed { return }
        do {
            switch event {
            case .next(let element):
                onNext(element)
            case .error(let error):
                try handlers.onError?(error)
                forwardOn(event)
                runAfterEnd { try handlers.afterError?(error) }
                dispose()
            case .completed:
                try handlers.onCompleted?()
                forwardOn(event)
                runAfterEnd { try handlers.afterCompleted?() }
                dispose()
            }
        } catch {
            forwardOn(.error(error))
            dispose()
        }
    }

    /// Runs an after-terminal handler; nothing may follow the terminal event, so what it throws
    /// is only reported.
    private func runAfterEnd(_ handler: () throws -> Void) {
        do {
            try handler()
        } catch {
            reportMisuse("do(afterError:/afterCompleted:) threw \(error) after the sequence ended; it was dropped.")
        }
    }
}

extension ObservableType {
    /// This sequence as a ``Single``: succeeds with the only element when the source completes.
    ///
    /// The element is delivered when the source completes, not when it arrives, because only
    /// then is it known to be the only one. Events are delivered on the source's thread.
    ///
    /// - Returns: A single that fails with ``RxError/noElements`` if the source completes empty,
    ///   with ``RxError/moreThanOneElement`` as soon as a second element arrives (the source is
    ///   disposed at once), and with the source's error if it fails.
    public func asSingle() -> Single<Element> {
        Single(raw: AsSingleProducer(source: asObservable(), requiresElement: true))
    }

    /// This sequence as a ``Maybe``: succeeds with the element, if any, when the source completes.
    ///
    /// - Returns: A maybe that completes empty if the source does, fails with
    ///   ``RxError/moreThanOneElement`` as soon as a second element arrives (the source is
    ///   disposed at once), and with the source's error if it fails.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: AsSingleProducer(source: asObservable(), requiresElement: false))
    }
}

extension ObservableType where Element == Never {
    /// This sequence, which has no elements, as a ``Completable``.
    ///
    /// As in RxSwift 6, only a sequence of `Never` converts directly (so the conversion cannot
    /// lose elements, and `createColdObservable([.completed(20)]).asCompletable()` infers
    /// `Never`). For any other sequence, drop the elements first:
    /// `source.ignoreElements().asCompletable()`.
    ///
    /// - Returns: A completable that completes or fails when the source does, on its thread.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}

private final class AsSingleProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let requiresElement: Bool

    init(source: Observable<Element>, requiresElement: Bool) {
        self.source = source
        self.requiresElement = requiresElement
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = AsSingleSink(requiresElement: requiresElement, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

/// Holds the first element until the source completes; a second element fails at once.
private final class AsSingleSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: `element` is only touched from `on(_:)`, which the source calls serially.
    typealias Element = Observer.Element

    private let requiresElement: Bool
    private var element: Element?

    init(requiresElement: Bool, observer: Observer, downstream: SubscriptionSlot?) {
        self.requiresElement = requiresElement
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ next: Element) {
        if isDisposed { return }
        guard element == nil else {
            element = nil
            forwardErrorAndDispose(RxError.moreThanOneElement)
            return
        }
        element = next
    }

    func on(_ event: Event<Element>) {
        if isDisposed { return }
        switch event {
        case .next(let next):
            onNext(next)
        case .error:
            element = nil
            forwardOn(event)
            dispose()
        case .completed:
            if let element {
                self.element = nil
                forwardOn(.next(element))
                forwardOn(.completed)
            } else if requiresElement {
                forwardOn(.error(RxError.noElements))
            } else {
                forwardOn(.completed)
            }
            dispose()
        }
    }
}

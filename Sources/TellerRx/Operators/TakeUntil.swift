extension ObservableType {
    /// Sends the source's elements until `other` sends an element; then completes and disposes
    /// both subscriptions.
    ///
    /// `other` is subscribed first, then the source. An error from `other` ends the result with
    /// that error. If `other` completes without an element it is disposed and the source
    /// continues. Events are sent on the thread of whichever sequence delivered them; the two
    /// sources are serialized without a lock held while delivering, so `other` may fire
    /// re-entrantly from inside a downstream `onNext` (its effect follows once that returns).
    ///
    /// ```swift
    /// values.take(until: viewWillDisappear)   // stops at the first `viewWillDisappear` element
    /// ```
    ///
    /// - Parameter other: The sequence whose first element ends the result.
    /// - Returns: An observable of the source's elements sent before `other` fired.
    public func take<Other: ObservableType>(until other: Other) -> Observable<Element> {
        TakeUntilProducer(source: asObservable(), other: other.asObservable())
    }

    /// The RxSwift 5 spelling of `take(until:)`.
    ///
    /// - Parameter other: The sequence whose first element ends the result.
    /// - Returns: An observable of the source's elements sent before `other` fired.
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Other: ObservableType>(_ other: Other) -> Observable<Element> {
        take(until: other)
    }
}

private final class TakeUntilProducer<Element: Sendable, Other: Sendable>: Producer<Element>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    let source: Observable<Element>
    let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = TakeUntilSink<Other, Observer>(observer: observer, downstream: downstream)
        sink.run(source: source, other: other)
        return sink
    }
}

/// Two sources forward into one observer: both go through the sink's drain (see
/// ``SerializingSink``), so their events never overlap downstream and the one that ends the
/// sequence sends its terminal event, and disposes both subscriptions, under no lock.
private final class TakeUntilSink<Other: Sendable, Observer: ObserverType>: SerializingSink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: no mutable state beyond `Sink`; `otherSubscription` is thread-safe.
    typealias Element = Observer.Element

    private let otherSubscription = SubscriptionSlot()

    /// Subscribes both sequences, wired as this sink's upstream first.
    func run(source: Observable<Element>, other: Observable<Other>) {
        let sourceSubscription = SubscriptionSlot()
        setSubscription(Disposables.create(sourceSubscription, otherSubscription))
        other.subscribe(TakeUntilOtherObserver(sink: self), upstreamOf: otherSubscription)
        source.subscribe(self, upstreamOf: sourceSubscription)
    }

    func onNext(_ element: Element) {
        if enterIfIdle() {
            forwardNext(element)
            leave()
        } else {
            serialized { [self] in forwardNext(element) }
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): onNext(element)
        case .error, .completed: serialized { [self] in forwardTerminal(event) }
        }
    }

    func onOther(_ event: Event<Other>) {
        switch event {
        case .next:
            serialized { [self] in forwardTerminal(.completed) }
        case .error(let error):
            serialized { [self] in forwardTerminal(.error(error)) }
        case .completed:
            // `other` can no longer stop the source: let it go and keep forwarding.
            otherSubscription.dispose()
        }
    }
}

/// Routes `other`'s events into the sink; a struct, so subscribing to `other` allocates no
/// observer object.
private struct TakeUntilOtherObserver<Other: Sendable, Observer: ObserverType>: ObserverType
where Observer.Element: Sendable {
    let sink: TakeUntilSink<Other, Observer>

    func on(_ event: Event<Other>) {
        sink.onOther(event)
    }
}

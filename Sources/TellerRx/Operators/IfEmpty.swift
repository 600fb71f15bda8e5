extension ObservableType {
    /// Sends `default` if this sequence completes without an element.
    ///
    /// Elements, completion and errors pass through on the source's thread. If the source
    /// completes without having sent an element, `default` is sent, then the completion, on the
    /// thread that delivered the completion. An error is never replaced.
    ///
    /// ```swift
    /// Observable<Int>.empty().ifEmpty(default: 0).subscribe(onNext: { print($0) })
    /// // Prints: 0
    /// ```
    ///
    /// - Parameter default: The element to send if the source has none.
    /// - Returns: The source's elements, or `default` alone if there were none.
    public func ifEmpty(default: Element) -> Observable<Element> {
        IfEmptyProducer(source: asObservable(), fallback: .element(`default`))
    }

    /// Continues with `other` if this sequence completes without an element.
    ///
    /// Elements, completion and errors pass through on the source's thread. If the source
    /// completes without having sent an element, its subscription is disposed and `other` is
    /// subscribed on the thread that delivered the completion; from then on the result is
    /// `other`'s events. An error is never replaced.
    ///
    /// - Parameter other: The sequence to continue with if the source has no element.
    /// - Returns: The source's elements, or `other`'s if there were none.
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        IfEmptyProducer(source: asObservable(), fallback: .observable(other))
    }
}

/// What `ifEmpty` falls back on. The element case saves subscribing to a `just`.
private enum IfEmptyFallback<Element: Sendable>: Sendable {
    case element(Element)
    case observable(Observable<Element>)
}

private final class IfEmptyProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let fallback: IfEmptyFallback<Element>

    init(source: Observable<Element>, fallback: IfEmptyFallback<Element>) {
        self.source = source
        self.fallback = fallback
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = IfEmptySink(fallback: fallback, observer: observer, downstream: downstream)
        sink.run(source)
        return sink
    }
}

private final class IfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `isEmpty` is only touched from `on(_:)`/`onNext(_:)`, which the source calls
    // serially; `fallback` is immutable; `subscription` is thread-safe.
    typealias Element = Observer.Element

    private let fallback: IfEmptyFallback<Element>
    private var isEmpty = true
    private let subscription = SerialDisposable()

    init(fallback: IfEmptyFallback<Element>, observer: Observer, downstream: SubscriptionSlot?) {
        self.fallback = fallback
        super.init(observer: observer, downstream: downstream)
    }

    /// Subscribes `source`, wired as this sink's upstream first.
    func run(_ source: Observable<Element>) {
        setSubscription(subscription)
        // Installed before subscribing, so a source that completes synchronously has the
        // fallback's subscription stored after it, not overwritten by it.
        let first = SubscriptionSlot()
        subscription.disposable = first
        source.subscribe(self, upstreamOf: first)
    }

    func onNext(_ element: Element) {
        isEmpty = false
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            guard isEmpty else {
                forwardOn(event)
                dispose()
                return
            }
            switch fallback {
            case .element(let element):
                forwardNext(element)
                forwardOn(.completed)
                dispose()
            case .observable(let other):
                // Replacing the serial disposable disposes the finished source's subscription.
                subscription.disposable = other.subscribe(forwarder())
            }
        }
    }
}

extension ObservableType {
    /// Drops the source's elements until `other` sends an element, then sends the rest.
    ///
    /// The source is subscribed first, then `other`. When `other` sends its first element it is
    /// disposed; if it completes without one it is disposed too and the result sends nothing
    /// more than a source error. An error from `other` before its first element ends the
    /// result with that error. As in RxSwift, if the source completes before `other` fires, the
    /// result ends without sending `completed`. Events are sent on the thread of whichever
    /// sequence delivered them, never overlapping.
    ///
    /// - Parameter other: The sequence whose first element opens the gate.
    /// - Returns: An observable of the source's elements sent after `other` fired.
    public func skip<Other: ObservableType>(until other: Other) -> Observable<Element> {
        SkipUntilProducer(source: asObservable(), other: other.asObservable())
    }

    /// The RxSwift 5 spelling of ``ObservableType/skip(until:)``.
    ///
    /// - Parameter other: The sequence whose first element opens the gate.
    /// - Returns: An observable of the source's elements sent after `other` fired.
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Other: ObservableType>(_ other: Other) -> Observable<Element> {
        skip(until: other)
    }
}

private final class SkipUntilProducer<Element: Sendable, Other: Sendable>: Producer<Element>,
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
        let sink = SkipUntilSink<Other, Observer>(observer: observer, downstream: downstream)
        sink.run(source: source, other: other)
        return sink
    }
}

/// The states of the gate between the two sources.
private enum Gate {
    /// `other` has not fired: source elements are dropped.
    static let closed = 0
    /// `other` fired: source events are forwarded.
    static let open = 1
    /// A terminal event was forwarded (or the source ended while closed).
    static let finished = 2
}

private final class SkipUntilSink<Other: Sendable, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `gate` is atomic; `otherSubscription` is thread-safe.
    typealias Element = Observer.Element

    /// No lock is needed: only the source forwards elements, and only while `open`; `other`
    /// forwards (its error) only after moving the gate from `closed` to `finished`, and the
    /// source forwards a terminal event only after moving it from `closed`/`open` to
    /// `finished`. Each transition is one atomic step, so downstream calls never overlap, and
    /// once the gate is open each source element costs one atomic load.
    private let gate = AtomicState(Gate.closed)
    private let otherSubscription = SubscriptionSlot()

    /// Subscribes both sequences, wired as this sink's upstream first.
    func run(source: Observable<Element>, other: Observable<Other>) {
        let sourceSubscription = SubscriptionSlot()
        setSubscription(Disposables.create(sourceSubscription, otherSubscription))
        source.subscribe(self, upstreamOf: sourceSubscription)
        other.subscribe(SkipUntilOtherObserver(sink: self), upstreamOf: otherSubscription)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        if gate.load() == Gate.open {
            forwardNext(element)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error:
            if gate.exchange(Gate.finished) != Gate.finished {
                forwardOn(event)
            }
            dispose()
        case .completed:
            if gate.exchange(Gate.finished) == Gate.open {
                forwardOn(event)
            }
            dispose()
        }
    }

    func onOther(_ event: Event<Other>) {
        switch event {
        case .next:
            _ = gate.compareExchange(expected: Gate.closed, desired: Gate.open)
            otherSubscription.dispose()
        case .error(let error):
            // Only before `other` fired: afterwards its events are ignored.
            if gate.compareExchange(expected: Gate.closed, desired: Gate.finished)
                .exchanged
            {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            otherSubscription.dispose()
        }
    }
}

/// Routes `other`'s events into the sink; a struct, so subscribing to `other` allocates no
/// observer object.
private struct SkipUntilOtherObserver<Other: Sendable, Observer: ObserverType>: ObserverType
where Observer.Element: Sendable {
    let sink: SkipUntilSink<Other, Observer>

    func on(_ event: Event<Other>) {
        sink.onOther(event)
    }
}

extension ObservableType {
    /// Sends the source's elements until `other` sends an element; then completes and disposes
    /// both subscriptions.
    ///
    /// `other` is subscribed first, then the source. An error from `other` ends the result with
    /// that error. If `other` completes without an element it is disposed and the source
    /// continues. Events are sent on the thread of whichever sequence delivered them; the two
    /// sources are serialized (with a recursive lock, so `other` may fire re-entrantly from
    /// inside a downstream `onNext`).
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

private final class TakeUntilSink<Other: Sendable, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: both sources' events go through `lock`; `otherSubscription` is thread-safe.
    typealias Element = Observer.Element

    /// Serializes the two sources. Recursive and held while forwarding (the documented
    /// exception to "act after the lock"): `other` may fire from inside a downstream `onNext`
    /// on the same thread, and events must not overlap downstream. The terminal event is sent,
    /// and both subscriptions disposed, only after it (see ``Sink/stopForwarding(recording:in:)``).
    private let lock = Lock(recursive: true)
    private let otherSubscription = SubscriptionSlot()
    /// How the sink ends, decided under `lock` and sent after it.
    @exclusivity(unchecked) private var pendingTerminal = PendingTerminal()

    /// Subscribes both sequences, wired as this sink's upstream first.
    func run(source: Observable<Element>, other: Observable<Other>) {
        let sourceSubscription = SubscriptionSlot()
        setSubscription(Disposables.create(sourceSubscription, otherSubscription))
        other.subscribe(TakeUntilOtherObserver(sink: self), upstreamOf: otherSubscription)
        source.subscribe(self, upstreamOf: sourceSubscription)
    }

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next:
                forwardOn(event)
            case .error(let error):
                stopForwarding(recording: .failed(error), in: &pendingTerminal)
            case .completed:
                stopForwarding(recording: .completed, in: &pendingTerminal)
            }
        }
        finishIfStopped()
    }

    func onOther(_ event: Event<Other>) {
        switch event {
        case .next:
            lock.withLock { stopForwarding(recording: .completed, in: &pendingTerminal) }
            finishIfStopped()
        case .error(let error):
            lock.withLock { stopForwarding(recording: .failed(error), in: &pendingTerminal) }
            finishIfStopped()
        case .completed:
            // `other` can no longer stop the source: let it go and keep forwarding.
            otherSubscription.dispose()
        }
    }

    /// Call after releasing `lock`: if this thread stopped the sink, sends the terminal event
    /// and disposes both subscriptions.
    @inline(__always)
    fileprivate func finishIfStopped() {
        if isDisposed { finishIfStoppedHere() }
    }

    @inline(never)
    private func finishIfStoppedHere() {
        finish(lock.withLock { pendingTerminal.takeIfRecordedHere() })
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

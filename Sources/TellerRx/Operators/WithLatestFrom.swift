extension ObservableType {
    /// Combines each element of this sequence with the latest element of `second`, using
    /// `resultSelector`.
    ///
    /// Elements that arrive before `second` has sent anything are dropped. `second` is
    /// subscribed first, then this sequence. The result completes when this sequence
    /// completes; `second` completing only freezes its latest element. An error from either
    /// sequence, or thrown by `resultSelector`, is sent at once and disposes both.
    ///
    /// `resultSelector` runs on the thread that delivers this sequence's element, serialized
    /// with `second`'s events.
    ///
    /// ```swift
    /// let submissions = submitTaps.withLatestFrom(formText) { _, text in text }
    /// ```
    ///
    /// - Parameters:
    ///   - second: The sequence whose latest element is sampled.
    ///   - resultSelector: Combines an element of this sequence with `second`'s latest element.
    /// - Returns: An observable of the combined elements.
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType: Sendable>(
        _ second: Source,
        resultSelector: @escaping @Sendable (Element, Source.Element) throws -> ResultType
    ) -> Observable<ResultType> {
        WithLatestFromProducer(first: asObservable(), second: second.asObservable(), resultSelector: resultSelector)
    }

    /// Replaces each element of this sequence with the latest element of `second`.
    ///
    /// Elements that arrive before `second` has sent anything are dropped. The result
    /// completes when this sequence completes; `second` completing only freezes its latest
    /// element. An error from either sequence is sent at once and disposes both.
    ///
    /// - Parameter second: The sequence whose latest element is sampled.
    /// - Returns: An observable of `second`'s latest element, once per element of this sequence.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFromProducer(first: asObservable(), second: second.asObservable()) { $1 }
    }
}

private final class WithLatestFromProducer<First: Sendable, Second: Sendable, Result: Sendable>: Producer<Result>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    typealias ResultSelector = @Sendable (First, Second) throws -> Result

    let first: Observable<First>
    let second: Observable<Second>
    let resultSelector: ResultSelector

    init(first: Observable<First>, second: Observable<Second>, resultSelector: @escaping ResultSelector) {
        self.first = first
        self.second = second
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Result {
        let sink = WithLatestFromSink(resultSelector: resultSelector, observer: observer, downstream: downstream)
        let secondObserver = WithLatestFromSecondObserver(sink: sink)
        second.subscribe(secondObserver, upstreamOf: secondObserver)
        let firstSubscription = first.subscribe(sink)
        sink.setSubscription(BinaryDisposable(firstSubscription, secondObserver))
        return sink
    }
}

/// Observes the first sequence and keeps the second's latest element. The recursive lock
/// serializes forwarding from both sequences and guards `latest`; a terminal event is sent, and
/// both subscriptions disposed, only after it is released (see
/// ``Sink/stopForwarding(recording:in:)``).
private final class WithLatestFromSink<First, Second, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
{
    // @unchecked: `latest` is guarded by `lock`.
    typealias ResultSelector = @Sendable (First, Second) throws -> Observer.Element

    fileprivate let lock = Lock(recursive: true)
    private let resultSelector: ResultSelector
    @exclusivity(unchecked) fileprivate var latest: Second?
    /// How the sink ends, decided under `lock` and sent after it.
    @exclusivity(unchecked) private var pendingTerminal = PendingTerminal()

    init(resultSelector: @escaping ResultSelector, observer: Observer, downstream: SubscriptionSlot?) {
        self.resultSelector = resultSelector
        super.init(observer: observer, downstream: downstream)
    }

    func on(_ event: Event<First>) {
        lock.lock()
        switch event {
        case .next(let element):
            if let latest, !isDisposed {
                do {
                    forwardOn(.next(try resultSelector(element, latest)))
                } catch {
                    fail(error)
                }
            }
        case .error(let error):
            fail(error)
        case .completed:
            stopForwarding(recording: .completed, in: &pendingTerminal)
        }
        lock.unlock()
        finishIfStopped()
    }

    /// Called under `lock`: ends with `error`, sent once the lock is released.
    fileprivate func fail(_ error: any Error) {
        stopForwarding(recording: .failed(error), in: &pendingTerminal)
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

/// Observes the second sequence: records its latest element.
private final class WithLatestFromSecondObserver<First, Second, Observer: ObserverType>: SubscriptionSlot,
    ObserverType, @unchecked Sendable
{
    // @unchecked: immutable; the sink's state is guarded by its lock.
    private let sink: WithLatestFromSink<First, Second, Observer>

    init(sink: WithLatestFromSink<First, Second, Observer>) {
        self.sink = sink
    }

    func on(_ event: Event<Second>) {
        switch event {
        case .next(let element):
            sink.lock.withLock { sink.latest = element }
        case .error(let error):
            sink.lock.withLock { sink.fail(error) }
            sink.finishIfStopped()
        case .completed:
            // Only this subscription ends; the latest element stays usable.
            dispose()
        }
    }
}

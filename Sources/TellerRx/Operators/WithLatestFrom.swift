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

/// Observes the first sequence and keeps the second's latest element. Both sequences' events
/// go through the sink's drain (see ``SerializingSink``), which also guards `latest`, so they
/// never overlap downstream and `resultSelector` runs under no lock.
private final class WithLatestFromSink<First: Sendable, Second: Sendable, Observer: ObserverType>: SerializingSink<
    Observer
>, ObserverType,
@unchecked Sendable
{
    // @unchecked: `latest` is only touched inside the drain's work.
    typealias ResultSelector = @Sendable (First, Second) throws -> Observer.Element

    private let resultSelector: ResultSelector
    @exclusivity(unchecked) private var latest: Second?

    init(resultSelector: @escaping ResultSelector, observer: Observer, downstream: SubscriptionSlot?) {
        self.resultSelector = resultSelector
        super.init(observer: observer, downstream: downstream)
    }

    func onNext(_ element: First) {
        if enterIfIdle() {
            combine(element)
            leave()
        } else {
            serialized { [self] in combine(element) }
        }
    }

    func on(_ event: Event<First>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            serialized { [self] in forwardTerminal(.error(error)) }
        case .completed:
            serialized { [self] in forwardTerminal(.completed) }
        }
    }

    private func combine(_ element: First) {
        guard let latest, !isDisposed else { return }
        do {
            forwardNext(try resultSelector(element, latest))
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    fileprivate func secondSent(_ element: Second) {
        serialized { [self] in latest = element }
    }

    fileprivate func secondFailed(_ error: any Error) {
        serialized { [self] in forwardTerminal(.error(error)) }
    }
}

/// Observes the second sequence: records its latest element.
private final class WithLatestFromSecondObserver<First: Sendable, Second: Sendable, Observer: ObserverType>:
    SubscriptionSlot,
    ObserverType, @unchecked Sendable
{
    // @unchecked: immutable.
    private let sink: WithLatestFromSink<First, Second, Observer>

    init(sink: WithLatestFromSink<First, Second, Observer>) {
        self.sink = sink
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Second) {
        sink.secondSent(element)
    }

    func on(_ event: Event<Second>) {
        switch event {
        case .next(let element):
            sink.secondSent(element)
        case .error(let error):
            sink.secondFailed(error)
        case .completed:
            // Only this subscription ends; the latest element stays usable.
            dispose()
        }
    }
}

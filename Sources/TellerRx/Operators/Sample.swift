extension ObservableType {
    /// Sends the source's latest element each time `sampler` ticks, if the source sent one
    /// since the previous tick (or else `defaultValue`, when one is given).
    ///
    /// Each `next` and the completion of `sampler` is a tick; elements are sent on the thread
    /// that delivers the tick. An element is sent at most once. When the source has completed,
    /// the next tick sends what is left and then completes the result; when `sampler` completes
    /// first, nothing more is sampled and the result completes only if the source already has.
    /// An error from either sequence is sent at once and ends the result.
    ///
    /// ```swift
    /// position.sample(Observable<Int>.interval(.seconds(1), scheduler: scheduler))
    ///     .subscribe(onNext: { report($0) })   // the latest position, once a second
    /// ```
    ///
    /// - Parameters:
    ///   - sampler: The sequence whose elements (and completion) trigger sampling.
    ///   - defaultValue: Sent on a tick when the source sent nothing new; `nil` sends nothing.
    /// - Returns: The sampled sequence.
    public func sample<Source: ObservableType>(
        _ sampler: Source,
        defaultValue: Element? = nil
    ) -> Observable<Element> {
        SampleProducer(source: asObservable(), sampler: sampler.asObservable(), defaultValue: defaultValue)
    }
}

private final class SampleProducer<Element: Sendable, SamplerElement: Sendable>: Producer<Element>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    let source: Observable<Element>
    let sampler: Observable<SamplerElement>
    let defaultValue: Element?

    init(source: Observable<Element>, sampler: Observable<SamplerElement>, defaultValue: Element?) {
        self.source = source
        self.sampler = sampler
        self.defaultValue = defaultValue
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = SampleSink(defaultValue: defaultValue, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink.sourceSubscription)
        let samplerSubscription = sampler.subscribe(SamplerObserver<Observer, SamplerElement>(sink: sink))
        sink.setSubscription(Disposables.create(sink.sourceSubscription, samplerSubscription))
        return sink
    }
}

/// Two sources forward into one observer: both go through the sink's drain (see
/// ``SerializingSink``), which also guards the state, so their events never overlap
/// downstream and nothing runs under a lock.
private final class SampleSink<Observer: ObserverType>: SerializingSink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: the `var`s are only touched inside `serialized`.
    typealias Element = Observer.Element

    let sourceSubscription = SubscriptionSlot()
    private let defaultValue: Element?
    private var latest: Element?
    private var sourceCompleted = false

    init(defaultValue: Element?, observer: Observer, downstream: SubscriptionSlot?) {
        self.defaultValue = defaultValue
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        if enterIfIdle() {
            latest = element
            leave()
        } else {
            serialized { [self] in latest = element }
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            serialized { [self] in forwardTerminal(.error(error)) }
        case .completed:
            serialized { [self] in sourceCompleted = true }
            sourceSubscription.dispose()
        }
    }

    func tick() {
        serialized { [self] in
            if isDisposed { return }
            if let element = latest {
                latest = nil
                forwardNext(element)
            } else if let defaultValue {
                forwardNext(defaultValue)
            }
            if sourceCompleted {
                forwardTerminal(.completed)
            }
        }
    }

    func samplerFailed(_ error: any Error) {
        serialized { [self] in forwardTerminal(.error(error)) }
    }
}

private struct SamplerObserver<Observer: ObserverType, SamplerElement>: ObserverType
where Observer.Element: Sendable {
    let sink: SampleSink<Observer>

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: SamplerElement) {
        sink.tick()
    }

    func on(_ event: Event<SamplerElement>) {
        switch event {
        case .next, .completed: sink.tick()
        case .error(let error): sink.samplerFailed(error)
        }
    }
}

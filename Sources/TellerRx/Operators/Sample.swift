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

/// Two sources forward into one observer, so (as in RxSwift) one recursive lock guards the
/// state and serializes forwarding: the documented exception to "never call downstream under
/// a lock". The terminal event is sent, and both subscriptions disposed, only after it is
/// released (see ``Sink/stopForwarding(recording:in:)``).
private final class SampleSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: the `var`s are only touched while holding `lock`.
    typealias Element = Observer.Element

    let sourceSubscription = SubscriptionSlot()
    private let defaultValue: Element?
    private let lock = Lock(recursive: true)
    private var latest: Element?
    private var sourceCompleted = false
    /// How the sink ends, decided under `lock` and sent after it.
    private var pendingTerminal = PendingTerminal()

    init(defaultValue: Element?, observer: Observer, downstream: SubscriptionSlot?) {
        self.defaultValue = defaultValue
        super.init(observer: observer, downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            lock.withLock { latest = element }
        case .error(let error):
            lock.withLock { stopForwarding(recording: .failed(error), in: &pendingTerminal) }
            finishIfStopped()
        case .completed:
            lock.withLock { sourceCompleted = true }
            sourceSubscription.dispose()
        }
    }

    func tick() {
        lock.withLock {
            if isDisposed { return }
            if let element = latest {
                latest = nil
                forwardOn(.next(element))
            } else if let defaultValue {
                forwardOn(.next(defaultValue))
            }
            if sourceCompleted {
                stopForwarding(recording: .completed, in: &pendingTerminal)
            }
        }
        finishIfStopped()
    }

    func samplerFailed(_ error: any Error) {
        lock.withLock { stopForwarding(recording: .failed(error), in: &pendingTerminal) }
        finishIfStopped()
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

private struct SamplerObserver<Observer: ObserverType, SamplerElement>: ObserverType {
    let sink: SampleSink<Observer>

    func on(_ event: Event<SamplerElement>) {
        switch event {
        case .next, .completed: sink.tick()
        case .error(let error): sink.samplerFailed(error)
        }
    }
}

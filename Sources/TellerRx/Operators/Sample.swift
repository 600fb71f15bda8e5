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
        cancel: any Cancelable
    ) -> (sink: any Disposable, subscription: any Disposable) where Observer.Element == Element {
        let sink = SampleSink(defaultValue: defaultValue, observer: observer, cancel: cancel)
        sink.sourceSubscription.setDisposable(source.subscribe(sink))
        let samplerSubscription = sampler.subscribe(SamplerObserver<Observer, SamplerElement>(sink: sink))
        return (sink, Disposables.create(sink.sourceSubscription, samplerSubscription))
    }
}

/// Two sources forward into one observer, so (as in RxSwift) one recursive lock guards the
/// state and serializes forwarding: the documented exception to "never call downstream under
/// a lock".
private final class SampleSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    // @unchecked: the `var`s are only touched while holding `lock`.
    typealias Element = Observer.Element

    let sourceSubscription = SingleAssignmentDisposable()
    private let defaultValue: Element?
    private let lock = Lock(recursive: true)
    private var latest: Element?
    private var sourceCompleted = false

    init(defaultValue: Element?, observer: Observer, cancel: any Cancelable) {
        self.defaultValue = defaultValue
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .next(let element):
            latest = element
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            sourceCompleted = true
            sourceSubscription.dispose()
        }
    }

    func tick() {
        lock.lock()
        defer { lock.unlock() }
        if let element = latest {
            latest = nil
            forwardOn(.next(element))
        } else if let defaultValue {
            forwardOn(.next(defaultValue))
        }
        if sourceCompleted {
            forwardOn(.completed)
            dispose()
        }
    }

    func samplerFailed(_ error: any Error) {
        lock.lock()
        defer { lock.unlock() }
        forwardOn(.error(error))
        dispose()
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

extension ObservableType {
    /// Drops the source's elements for `duration` after subscription, then passes them on.
    ///
    /// Elements pass through on the source's thread once the timer on `scheduler` has ended.
    /// The source's error or completion passes through whenever it comes, even during
    /// `duration`.
    ///
    /// - Parameters:
    ///   - duration: How long to drop elements.
    ///   - scheduler: Runs the timer.
    /// - Returns: The source sequence without the elements of its first `duration`.
    public func skip(for duration: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        SkipForDurationProducer(source: asObservable(), duration: duration, scheduler: scheduler)
    }

    /// The RxSwift 5 spelling of ``ObservableType/skip(for:scheduler:)``; identical behaviour.
    ///
    /// - Parameters:
    ///   - duration: How long to drop elements.
    ///   - scheduler: Runs the timer.
    /// - Returns: The source sequence without the elements of its first `duration`.
    @available(*, deprecated, renamed: "skip(for:scheduler:)")
    public func skip(_ duration: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        skip(for: duration, scheduler: scheduler)
    }
}

private final class SkipForDurationProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let duration: RxTimeInterval
    let scheduler: any SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: any SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = SkipForDurationSink(observer: observer, downstream: downstream)
        let timer = scheduler.scheduleRelative(sink, dueTime: duration) { sink in
            sink.open()
            return Disposables.create()
        }
        let subscription = source.subscribe(sink)
        sink.setSubscription(Disposables.create(timer, subscription))
        return sink
    }
}

/// Only the source forwards (the timer just opens the gate), so an atomic flag is enough.
private final class SkipForDurationSink<Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
{
    // @unchecked: `isOpen` is atomic.
    private let isOpen = AtomicState(false)

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Observer.Element) {
        if isOpen.isSet { forwardNext(element) }
    }

    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }

    func open() {
        isOpen.set()
    }
}

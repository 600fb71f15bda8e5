extension ObservableType {
    /// Sends the source's events for `duration` after subscription, then completes.
    ///
    /// Elements pass through on the source's thread. When `duration` has passed, the completion
    /// is sent on `scheduler` and the source subscription is disposed. If the source ends
    /// first, its terminal event passes through and the timer is cancelled.
    ///
    /// - Parameters:
    ///   - duration: How long to pass the source's events on.
    ///   - scheduler: Runs the timer and sends the completion it causes.
    /// - Returns: The source sequence, cut off after `duration`.
    public func take(for duration: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        TakeForDurationProducer(source: asObservable(), duration: duration, scheduler: scheduler)
    }

    /// The RxSwift 5 spelling of ``ObservableType/take(for:scheduler:)``; identical behaviour.
    ///
    /// - Parameters:
    ///   - duration: How long to pass the source's events on.
    ///   - scheduler: Runs the timer and sends the completion it causes.
    /// - Returns: The source sequence, cut off after `duration`.
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }
}

private final class TakeForDurationProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
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
        let sink = TakeForDurationSink(observer: observer, downstream: downstream)
        let timer = scheduler.scheduleRelative(sink, dueTime: duration) { sink in
            sink.timerFired()
            return Disposables.create()
        }
        let subscription = source.subscribe(sink)
        sink.setSubscription(Disposables.create(timer, subscription))
        return sink
    }
}

/// The timer and the source both forward, so both go through the sink's drain (see
/// ``SerializingSink``).
private final class TakeForDurationSink<Observer: ObserverType>: DrainedSourceSink<Observer.Element, Observer>,
    @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: no mutable state beyond `Sink`; the drain only serializes forwarding.

    override func handleNext(_ element: Observer.Element) {
        forwardNext(element)
    }

    override func handleTerminal(_ terminal: SinkTerminal) {
        switch terminal {
        case .failed(let error): forwardOn(.error(error))
        case .completed: forwardOn(.completed)
        }
        dispose()
    }

    func timerFired() {
        serialized { [self] in
            forwardOn(.completed)
            dispose()
        }
    }
}

extension ObservableType {
    /// Subscribes to the source `dueTime` after `subscribe` is called, on `scheduler`.
    ///
    /// Nothing happens until the delay has passed; then the source is subscribed from
    /// `scheduler` and its events pass through unchanged, on whatever thread the source sends
    /// them. Disposing before the delay has passed cancels the subscription, so the source is
    /// never subscribed.
    ///
    /// - Parameters:
    ///   - dueTime: How long to wait before subscribing.
    ///   - scheduler: Runs the timer and the subscription.
    /// - Returns: The source sequence, subscribed later.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        DelaySubscriptionProducer(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class DelaySubscriptionProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let scheduler: any SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: any SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = DelaySubscriptionSink(observer: observer, downstream: downstream)
        let source = source
        // The scheduled work keeps the disposable its action returns, so disposing it later
        // also disposes the source subscription.
        let subscription = scheduler.scheduleRelative(sink, dueTime: dueTime) { sink in
            source.subscribe(sink)
        }
        sink.setSubscription(subscription)
        return sink
    }
}

private final class DelaySubscriptionSink<Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
{
    // @unchecked: nothing beyond `Sink`.
    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Observer.Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Observer.Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}

extension ObservableType {
    /// Subscribes to the source, and later disposes that subscription, on `scheduler`.
    ///
    /// Use it to move the work a source does when subscribed (opening a file, starting a
    /// request, a synchronous `create` loop) off the calling thread. `subscribe` returns at once;
    /// the source is subscribed when `scheduler` runs the scheduled work. Events are delivered
    /// wherever the source sends them (often on `scheduler`, for a synchronous source); use
    /// ``ObservableType/observe(on:)`` to choose where observers run. Disposing before the
    /// scheduled subscription ran cancels it, so the source is never subscribed.
    ///
    /// On a `TestScheduler` the source is subscribed one tick after `subscribe` and disposed
    /// one tick after the disposal, as with RxTest.
    ///
    /// ```swift
    /// Observable.from(loadLinesFromDisk())
    ///     .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .utility))
    ///     .observe(on: MainScheduler.instance)
    ///     .subscribe(onNext: { show($0) })
    /// ```
    ///
    /// - Parameter scheduler: Where the source is subscribed and unsubscribed.
    /// - Returns: The source sequence, subscribed on `scheduler`.
    public func subscribe(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        // The source is kept as it is (not wrapped by `asObservable()`), as RxSwift does, so
        // its subscription is made and disposed exactly on the scheduler.
        SubscribeOnProducer(source: self, scheduler: scheduler)
    }

    /// The older spelling of ``ObservableType/subscribe(on:)``, kept so code written for
    /// RxSwift 5 (and the Teller README) compiles unchanged. Identical behaviour.
    ///
    /// - Parameter scheduler: Where the source is subscribed and unsubscribed.
    /// - Returns: The source sequence, subscribed on `scheduler`.
    public func subscribeOn(_ scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

private final class SubscribeOnProducer<Source: ObservableType>: Producer<Source.Element>, @unchecked Sendable {
    // @unchecked: immutable; `source` is only used to subscribe, which any observable allows
    // from any thread.
    let source: Source
    let scheduler: any ImmediateSchedulerType

    init(source: Source, scheduler: any ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Source.Element {
        let sink = SubscribeOnSink(observer: observer, downstream: downstream)
        let subscription = SerialDisposable()
        let pending = SingleAssignmentDisposable()
        subscription.disposable = pending
        // Any observable may be subscribed from any thread; `ObservableType` just doesn't say so.
        let source = UncheckedSendable(source)
        let scheduler = scheduler
        pending.setDisposable(
            scheduler.schedule(sink) { sink in
                let inner = source.value.subscribe(sink)
                // From now on, disposing unsubscribes on the scheduler too.
                subscription.disposable = ScheduledDisposable(scheduler: scheduler, disposable: inner)
                return Disposables.create()
            }
        )
        sink.setSubscription(subscription)
        return sink
    }
}

private final class SubscribeOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
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

extension ObservableType {
    /// Resubscribes to this sequence after a failure when the sequence `notificationHandler`
    /// returns sends an element.
    ///
    /// `notificationHandler` runs once per subscription, on the subscribing thread, and is
    /// given the errors of this sequence that are of type `Failure`; the trigger sequence it
    /// returns is subscribed before the source. After each such failure the failed
    /// subscription is disposed and the error is sent into the handler's sequence: the next
    /// element the trigger sends resubscribes (on the trigger's thread); if the trigger
    /// completes or fails, so does the result. An error of another type is sent downstream at
    /// once. Elements the trigger sends while the source is running are ignored; a trigger
    /// that ends while the source is running ends the result at the source's next failure.
    ///
    /// ```swift
    /// // Retry one second after each failure, three times at most, then fail for good.
    /// source.retry(when: { (errors: Observable<NetworkError>) in
    ///     errors
    ///         .scan(0) { attempts, error in
    ///             guard attempts < 3 else { throw error }
    ///             return attempts + 1
    ///         }
    ///         .flatMap { _ in Observable<Int>.timer(.seconds(1), scheduler: MainScheduler.instance) }
    /// })
    /// ```
    ///
    /// - Parameter notificationHandler: Turns the sequence of failures into a trigger sequence.
    /// - Returns: The elements of every attempt until one completes or the trigger ends.
    public func retry<TriggerObservable: ObservableType, Failure: Swift.Error>(
        when notificationHandler: @escaping @Sendable (Observable<Failure>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhenProducer(source: asObservable(), notificationHandler: notificationHandler)
    }

    /// Resubscribes to this sequence after a failure when the sequence `notificationHandler`
    /// returns sends an element; every error is given to the handler.
    ///
    /// Behaves as the typed `retry(when:)` with every error type accepted: no error is sent
    /// downstream at once; each one goes to the handler.
    ///
    /// - Parameter notificationHandler: Turns the sequence of failures into a trigger sequence.
    /// - Returns: The elements of every attempt until one completes or the trigger ends.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping @Sendable (Observable<any Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhenProducer(source: asObservable(), notificationHandler: notificationHandler)
    }
}

private final class RetryWhenProducer<Element: Sendable, Trigger: ObservableType, Failure: Error>: Producer<Element>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    typealias Handler = @Sendable (Observable<Failure>) -> Trigger

    let source: Observable<Element>
    let notificationHandler: Handler

    init(source: Observable<Element>, notificationHandler: @escaping Handler) {
        self.source = source
        self.notificationHandler = notificationHandler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = RetryWhenSink<Observer, Trigger, Failure>(source: source, observer: observer, downstream: downstream)
        sink.setSubscription(sink.run(notificationHandler))
        return sink
    }
}

private final class RetryWhenSink<Observer: ObserverType, Trigger: ObservableType, Failure: Error>: Sink<Observer>,
    ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: mutable state is in `state`; the disposables and the subject are thread-safe.
    typealias Element = Observer.Element

    private struct State {
        var trampoline = ResubscribeTrampoline()
        /// The source failed and the trigger has not answered yet.
        var isWaiting = false
        /// How the trigger ended, if it did.
        var triggerEnd: Event<Element>?
    }

    private let source: Observable<Element>
    private let errors = PublishSubject<Failure>()
    private let state = LockedState(State())
    private let sourceSubscription = SerialDisposable()
    private let triggerSubscription = SingleAssignmentDisposable()

    init(source: Observable<Element>, observer: Observer, downstream: SubscriptionSlot?) {
        self.source = source
        super.init(observer: observer, downstream: downstream)
    }

    func run(_ notificationHandler: RetryWhenProducer<Element, Trigger, Failure>.Handler) -> any Disposable {
        let trigger = notificationHandler(errors.asObservable())
        triggerSubscription.setDisposable(trigger.subscribe(RetryTrigger(sink: self)))
        requestAttempt()
        return Disposables.create(sourceSubscription, triggerSubscription)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            guard let failure = error as? Failure else {
                forwardOn(event)
                dispose()
                return
            }
            sourceSubscription.disposable = Disposables.create()
            let end = state.withLock { state -> Event<Element>? in
                if let end = state.triggerEnd { return end }
                state.isWaiting = true
                return nil
            }
            if let end {
                forwardOn(end)
                dispose()
            } else {
                errors.onNext(failure)
            }
        }
    }

    /// The trigger sent an element: resubscribe if the source is waiting for one.
    func triggerFired() {
        let resubscribe = state.withLock { state in
            guard state.isWaiting else { return false }
            state.isWaiting = false
            return true
        }
        if resubscribe { requestAttempt() }
    }

    /// The trigger ended: end the result now if the source is waiting, else at its next failure.
    func triggerEnded(_ end: Event<Element>) {
        let endNow = state.withLock { state in
            guard state.triggerEnd == nil else { return false }
            state.triggerEnd = end
            return state.isWaiting
        }
        if endNow {
            forwardOn(end)
            dispose()
        }
    }

    private func requestAttempt() {
        guard state.withLock({ $0.trampoline.request() }) else { return }
        while state.withLock({ $0.trampoline.take() }) {
            if isDisposed { return }
            sourceSubscription.disposable = source.subscribe(self)
        }
    }
}

/// Observes the trigger sequence of `retry(when:)`.
private struct RetryTrigger<Observer: ObserverType, Trigger: ObservableType, Failure: Error>: ObserverType
where Observer.Element: Sendable {
    let sink: RetryWhenSink<Observer, Trigger, Failure>

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Trigger.Element) {
        sink.triggerFired()
    }

    func on(_ event: Event<Trigger.Element>) {
        switch event {
        case .next: sink.triggerFired()
        case .error(let error): sink.triggerEnded(.error(error))
        case .completed: sink.triggerEnded(.completed)
        }
    }
}

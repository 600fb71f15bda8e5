extension ObservableType {
    /// Fails with ``RxError/timeout`` if the source sends nothing within `dueTime` of
    /// subscription, or within `dueTime` of its previous element.
    ///
    /// Each element restarts the timer. When the timer ends first, the source subscription is
    /// disposed and the error is sent on `scheduler`; events the source sends after that are
    /// ignored. Elements, completion and source errors pass through on the source's thread.
    ///
    /// ```swift
    /// request.timeout(.seconds(10), scheduler: scheduler)
    ///     .subscribe(onError: { error in
    ///         if case RxError.timeout = error { showSlowNetworkHint() }
    ///     })
    /// ```
    ///
    /// - Parameters:
    ///   - dueTime: The longest wait for the first element and between elements.
    ///   - scheduler: Runs the timers and sends the timeout error.
    /// - Returns: The source sequence, failing with `RxError.timeout` if it stalls.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        TimeoutProducer(
            source: asObservable(),
            dueTime: dueTime,
            other: Observable<Element>.error(RxError.timeout),
            scheduler: scheduler
        )
    }

    /// Switches to `other` if the source sends nothing within `dueTime` of subscription, or
    /// within `dueTime` of its previous element.
    ///
    /// Each element restarts the timer. When the timer ends first, the source subscription is
    /// disposed and `other` is subscribed on `scheduler`; from then on the result is `other`'s
    /// events, and anything the source sends is ignored.
    ///
    /// - Parameters:
    ///   - dueTime: The longest wait for the first element and between elements.
    ///   - other: The sequence to continue with after a timeout.
    ///   - scheduler: Runs the timers and subscribes to `other`.
    /// - Returns: The source sequence, or `other` after a timeout.
    public func timeout<Other: ObservableConvertibleType>(
        _ dueTime: RxTimeInterval,
        other: Other,
        scheduler: any SchedulerType
    ) -> Observable<Element> where Other.Element == Element {
        TimeoutProducer(source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler)
    }
}

private final class TimeoutProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let other: Observable<Element>
    let scheduler: any SchedulerType

    init(
        source: Observable<Element>,
        dueTime: RxTimeInterval,
        other: Observable<Element>,
        scheduler: any SchedulerType
    ) {
        self.source = source
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = TimeoutSink(parent: self, observer: observer, downstream: downstream)
        let original = SubscriptionSlot()
        sink.subscription.disposable = original
        sink.startTimer(generation: 0)
        source.subscribe(sink, upstreamOf: original)
        sink.setSubscription(Disposables.create(sink.subscription, sink.timer))
        return sink
    }
}

/// The source and the timer race: whoever takes the lock first for an element or a timeout
/// wins, and the loser does nothing. Forwarding happens outside the lock: once the timer has
/// won the source is ignored, and an element's win makes every pending timer stale, so two
/// threads never forward at once.
private final class TimeoutSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: all mutable state is in `state`; the rest is immutable or thread-safe.
    typealias Element = Observer.Element

    private struct State {
        /// Identifies the current timer; bumped by each source event.
        var generation: UInt64 = 0
        /// The timer won; the result follows `other` from now on.
        var switched = false
    }

    /// The source subscription, replaced by the subscription to `other` on a timeout.
    let subscription = SerialDisposable()
    let timer = SerialDisposable()
    private let parent: TimeoutProducer<Element>
    private let state = LockedState(State())

    init(parent: TimeoutProducer<Element>, observer: Observer, downstream: SubscriptionSlot?) {
        self.parent = parent
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        guard let generation = claimGeneration() else { return }
        forwardNext(element)
        startTimer(generation: generation)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            guard claimGeneration() != nil else { return }
            forwardTerminal(event)
        }
    }

    /// A source event's generation, making every pending timer stale; `nil` once the timer won.
    private func claimGeneration() -> UInt64? {
        state.withLock { state -> UInt64? in
            if state.switched { return nil }
            state.generation &+= 1
            return state.generation
        }
    }

    func startTimer(generation: UInt64) {
        if timer.isDisposed { return }
        timer.disposable = parent.scheduler.scheduleRelative(self, dueTime: parent.dueTime) { sink in
            sink.timerFired(generation)
            return Disposables.create()
        }
    }

    private func timerFired(_ firedGeneration: UInt64) {
        let wins = state.withLock { state -> Bool in
            guard !state.switched, state.generation == firedGeneration else { return false }
            state.switched = true
            return true
        }
        guard wins else { return }
        // Replacing the source subscription disposes it.
        subscription.disposable = parent.other.subscribe(forwarder())
    }
}

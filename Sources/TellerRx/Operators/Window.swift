extension ObservableType {
    /// Splits the sequence into windows: consecutive observables, each closed when it holds
    /// `count` elements or when `timeSpan` has passed since it opened, whichever comes first.
    ///
    /// The first window is sent at subscription; closing a window (it completes) sends the
    /// next one at once. A window closed by time may be empty. Windows are hot: subscribe to
    /// each as it arrives (`flatMap`, `merge` or `concat` do) to see all its elements. When
    /// the source completes or fails, the open window completes or fails, then the outer
    /// sequence does. Elements and windows closed by count are delivered on the source's
    /// thread; windows closed by time on `scheduler`. Delivery is serialized under one lock.
    ///
    /// Disposing the outer subscription stops new windows from being sent, but the source stays
    /// subscribed while any window still has a subscriber, as in RxSwift.
    ///
    /// ```swift
    /// taps.window(timeSpan: .seconds(1), count: 5, scheduler: MainScheduler.instance)
    ///     .flatMap { $0.toArray() }   // the taps of each window, as an array
    /// ```
    ///
    /// - Parameters:
    ///   - timeSpan: The longest time a window stays open.
    ///   - count: The most elements in one window; 0 or less means no limit (time only).
    ///   - scheduler: Runs the window timers and sends the windows they open.
    /// - Returns: An observable of windows of consecutive source elements.
    public func window(
        timeSpan: RxTimeInterval,
        count: Int,
        scheduler: any SchedulerType
    ) -> Observable<Observable<Element>> {
        WindowProducer(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class WindowProducer<Element: Sendable>: Producer<Observable<Element>>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let timeSpan: RxTimeInterval
    let count: Int
    let scheduler: any SchedulerType

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: any SchedulerType) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Observable<Element> {
        let sink = WindowSink<Element, Observer>(
            timeSpan: timeSpan,
            count: count,
            scheduler: scheduler,
            observer: observer,
            downstream: downstream
        )
        sink.run(source)
        return sink
    }
}

/// Timer callbacks and source events arrive on different threads and both forward, so both go
/// through the sink's drain (see ``SerializingSink``), which also guards the state.
private final class WindowSink<Element: Sendable, Observer: ObserverType>: DrainedSourceSink<Element, Observer>,
    @unchecked Sendable
where Observer.Element == Observable<Element> {
    // @unchecked: `window`, `windowCount`, `windowID` and `isStopped` are only touched inside
    // `serialized`; the disposables are thread-safe.
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: any SchedulerType
    private let timer = SerialDisposable()
    private let sourceSubscription = SubscriptionSlot()
    private let refCount: RefCountDisposable
    private var window = PublishSubject<Element>()
    private var windowCount = 0
    /// Identifies the open window; the timer of a window already closed by count does nothing.
    private var windowID: UInt64 = 0
    private var isStopped = false

    init(
        timeSpan: RxTimeInterval,
        count: Int,
        scheduler: any SchedulerType,
        observer: Observer,
        downstream: SubscriptionSlot?
    ) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        refCount = RefCountDisposable(disposable: Disposables.create(timer, sourceSubscription))
        super.init(observer: observer, downstream: downstream)
    }

    /// Subscribes `source`, wired as this sink's upstream first.
    func run(_ source: Observable<Element>) {
        setSubscription(refCount)
        serialized { [self] in
            forwardOn(.next(AddRef(source: window, refCount: refCount)))
            startTimer()
        }
        source.subscribe(self, upstreamOf: sourceSubscription)
    }

    override func handleNext(_ element: Element) {
        guard !isStopped else { return }
        window.onNext(element)
        guard count > 0 else { return }
        windowCount += 1
        if windowCount == count { closeWindow() }
    }

    override func handleTerminal(_ terminal: SinkTerminal) {
        guard !isStopped else { return }
        switch terminal {
        case .failed(let error):
            window.onError(error)
            stop(.error(error))
        case .completed:
            window.onCompleted()
            stop(.completed)
        }
    }

    /// Sends the terminal event and stops the timer and the source at once, even if someone
    /// still holds a window. Call inside `serialized`.
    private func stop(_ event: Event<Observable<Element>>) {
        isStopped = true
        forwardOn(event)
        timer.dispose()
        sourceSubscription.dispose()
        dispose()
    }

    /// Starts the open window's timer. Call inside `serialized`.
    private func startTimer() {
        guard !timer.isDisposed else { return }
        let current = windowID
        timer.disposable = scheduler.scheduleRelative(self, dueTime: timeSpan) { sink in
            sink.serialized { sink.timerFired(current) }
            return Disposables.create()
        }
    }

    /// Completes the open window, sends a new one and starts its timer. Call inside `serialized`.
    private func closeWindow() {
        windowID &+= 1
        windowCount = 0
        window.onCompleted()
        window = PublishSubject()
        forwardOn(.next(AddRef(source: window, refCount: refCount)))
        startTimer()
    }

    private func timerFired(_ firedWindow: UInt64) {
        guard !isStopped, firedWindow == windowID else { return }
        closeWindow()
    }
}

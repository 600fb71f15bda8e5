extension ObservableType {
    /// Collects elements into arrays, sending each array when it holds `count` elements or
    /// when `timeSpan` has passed since the previous array was sent, whichever comes first.
    ///
    /// Like a ferry that leaves when it is full or when its departure time comes. The first
    /// window starts at subscription; each array sent starts a new window. A window that ends
    /// by time sends its array even when it is empty (on `scheduler`); a full array is sent on
    /// the source's thread. When the source completes, the current array (possibly empty) is
    /// sent, then the completion. An error drops the current array and is sent at once.
    ///
    /// ```swift
    /// logLines.buffer(timeSpan: .seconds(5), count: 100, scheduler: scheduler)
    ///     .subscribe(onNext: { upload($0) })   // at most 100 lines, at least every 5 s
    /// ```
    ///
    /// - Parameters:
    ///   - timeSpan: The longest time a window stays open.
    ///   - count: The most elements in one array; 0 or less means no limit (time only).
    ///   - scheduler: Runs the window timers and sends the arrays they close.
    /// - Returns: An observable of arrays of consecutive source elements.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: any SchedulerType) -> Observable<[Element]> {
        BufferProducer(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class BufferProducer<Element: Sendable>: Producer<[Element]>, @unchecked Sendable {
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
    ) -> any Disposable where Observer.Element == [Element] {
        let sink = BufferSink<Element, Observer>(
            timeSpan: timeSpan,
            count: count,
            scheduler: scheduler,
            observer: observer,
            downstream: downstream
        )
        sink.startTimer()
        let subscription = source.subscribe(sink)
        sink.setSubscription(Disposables.create(sink.timer, subscription))
        return sink
    }
}

/// Timer callbacks and source events arrive on different threads and both forward, so both
/// go through the sink's drain (see ``SerializingSink``), which also guards the state.
private final class BufferSink<Element: Sendable, Observer: ObserverType>: DrainedSourceSink<Element, Observer>,
    @unchecked Sendable
where Observer.Element == [Element] {
    // @unchecked: `buffer` and `window` are only touched inside `serialized` (or before subscribing).
    let timer = SerialDisposable()
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: any SchedulerType
    private var buffer: [Element] = []
    /// Identifies the open window; the timer of a window already closed by count does nothing.
    private var window: UInt64 = 0

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
        super.init(observer: observer, downstream: downstream)
    }

    override func handleNext(_ element: Element) {
        buffer.append(element)
        if buffer.count == count { closeWindow() }
    }

    override func handleTerminal(_ terminal: SinkTerminal) {
        switch terminal {
        case .failed(let error):
            buffer = []
            forwardOn(.error(error))
        case .completed:
            let last = buffer
            buffer = []
            forwardOn(.next(last))
            forwardOn(.completed)
        }
        dispose()
    }

    /// Starts the open window's timer. Call inside `serialized`, or before subscribing.
    func startTimer() {
        let current = window
        timer.disposable = scheduler.scheduleRelative(self, dueTime: timeSpan) { sink in
            sink.serialized { sink.timerFired(current) }
            return Disposables.create()
        }
    }

    /// Sends the current array and opens the next window. Call inside `serialized`.
    private func closeWindow() {
        window &+= 1
        let full = buffer
        buffer = []
        forwardOn(.next(full))
        if !isDisposed { startTimer() }
    }

    private func timerFired(_ firedWindow: UInt64) {
        guard firedWindow == window else { return }
        closeWindow()
    }
}

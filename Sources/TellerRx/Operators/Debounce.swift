extension ObservableType {
    /// Sends an element only after `dueTime` has passed without the source sending another.
    ///
    /// Each element starts a timer on `scheduler` and replaces the element waiting before it;
    /// the waiting element is sent, on `scheduler`, when its timer ends. When the source
    /// completes, the waiting element (if any) is sent at once, followed by the completion.
    /// When the source fails, the waiting element is dropped and the error is sent at once.
    ///
    /// ```swift
    /// searchText
    ///     .debounce(.milliseconds(300), scheduler: MainScheduler.instance)
    ///     .subscribe(onNext: { search($0) })   // one search per pause in typing
    /// ```
    ///
    /// - Parameters:
    ///   - dueTime: How long the source must stay quiet before the latest element is sent.
    ///   - scheduler: Runs the timers and sends the elements they release.
    /// - Returns: The source sequence without the elements that were followed too soon.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        DebounceProducer(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class DebounceProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
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
        let sink = DebounceSink(dueTime: dueTime, scheduler: scheduler, observer: observer, downstream: downstream)
        let subscription = source.subscribe(sink)
        sink.setSubscription(Disposables.create(subscription, sink.timer))
        return sink
    }
}

/// Timer callbacks and source events arrive on different threads and both forward, so both
/// go through the sink's drain (see ``SerializingSink``), which also guards the state.
private final class DebounceSink<Observer: ObserverType>: DrainedSourceSink<Observer.Element, Observer>,
    @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `pending` and `generation` are only touched inside `serialized`.
    typealias Element = Observer.Element

    let timer = SerialDisposable()
    private let dueTime: RxTimeInterval
    private let scheduler: any SchedulerType
    private var pending: Element?
    /// Identifies the latest element's timer; an older timer that fires late does nothing.
    private var generation: UInt64 = 0

    init(dueTime: RxTimeInterval, scheduler: any SchedulerType, observer: Observer, downstream: SubscriptionSlot?) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, downstream: downstream)
    }

    override func handleNext(_ element: Element) {
        generation &+= 1
        pending = element
        // Replacing the timer cancels the previous element's.
        let current = generation
        timer.disposable = scheduler.scheduleRelative(self, dueTime: dueTime) { sink in
            sink.serialized { sink.timerFired(current) }
            return Disposables.create()
        }
    }

    override func handleTerminal(_ terminal: SinkTerminal) {
        switch terminal {
        case .failed(let error):
            pending = nil
            forwardOn(.error(error))
        case .completed:
            if let element = pending {
                pending = nil
                forwardNext(element)
            }
            forwardOn(.completed)
        }
        dispose()
    }

    private func timerFired(_ firedGeneration: UInt64) {
        guard firedGeneration == generation, let element = pending else { return }
        pending = nil
        forwardNext(element)
    }
}

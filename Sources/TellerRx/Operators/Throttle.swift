#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ObservableType {
    /// Sends at most one element per `dueTime`: the first element at once, then (with `latest`)
    /// the latest element of each window when the window ends.
    ///
    /// An element that arrives when `dueTime` has passed since the last element sent is sent
    /// at once, on the source's thread. An element that arrives sooner is dropped when `latest`
    /// is `false`; when `latest` is `true` it is kept (replacing any element kept before) and
    /// sent on `scheduler` as soon as `dueTime` has passed since the last element sent. So no
    /// two elements are ever sent less than `dueTime` apart. When the source completes while an
    /// element is kept, that element is sent when its window ends and the completion follows
    /// it; the source subscription is disposed at once. An error is sent at once and drops the
    /// kept element.
    ///
    /// ```swift
    /// taps.throttle(.seconds(1), latest: false, scheduler: MainScheduler.instance)
    ///     .subscribe(onNext: { submit() })   // at most one submit per second
    /// ```
    ///
    /// - Parameters:
    ///   - dueTime: The shortest time between two elements sent.
    ///   - latest: Whether to send the latest element of a window when it ends (`true`) or
    ///     drop elements that arrive within a window (`false`).
    ///   - scheduler: Tells the time, runs the timers and sends kept elements.
    /// - Returns: The throttled sequence.
    public func throttle(
        _ dueTime: RxTimeInterval,
        latest: Bool = true,
        scheduler: any SchedulerType
    ) -> Observable<Element> {
        ThrottleProducer(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

private final class ThrottleProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let latest: Bool
    let scheduler: any SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: any SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = ThrottleSink(parent: self, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink.sourceSubscription)
        sink.setSubscription(Disposables.create(sink.sourceSubscription, sink.timer))
        return sink
    }
}

/// Timer callbacks and source events arrive on different threads and both forward, so both
/// go through the sink's drain (see ``SerializingSink``), which also guards the state.
private final class ThrottleSink<Observer: ObserverType>: DrainedSourceSink<Observer.Element, Observer>,
    @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: the `var`s are only touched inside `serialized`.
    typealias Element = Observer.Element

    let sourceSubscription = SubscriptionSlot()
    let timer = SerialDisposable()
    private let parent: ThrottleProducer<Element>
    private var kept: Element?
    private var lastSentTime: Date?
    /// The source completed while an element was kept; complete after sending it.
    private var completeAfterKept = false
    /// Identifies the current timer; a replaced timer that fires late does nothing.
    private var generation: UInt64 = 0

    init(parent: ThrottleProducer<Element>, observer: Observer, downstream: SubscriptionSlot?) {
        self.parent = parent
        super.init(observer: observer, downstream: downstream)
    }

    override func handleNext(_ element: Element) {
        let wait = lastSentTime.map { parent.dueTime.remaining(from: $0, to: parent.scheduler.now) }
        guard let wait, !wait.isNow else {
            send(element)
            return
        }
        guard parent.latest else { return }
        let timerRunning = kept != nil
        kept = element
        if timerRunning { return }
        generation &+= 1
        let current = generation
        timer.disposable = parent.scheduler.scheduleRelative(self, dueTime: wait) { sink in
            sink.serialized { sink.timerFired(current) }
            return Disposables.create()
        }
    }

    override func handleTerminal(_ terminal: SinkTerminal) {
        switch terminal {
        case .failed(let error):
            kept = nil
            forwardOn(.error(error))
            dispose()
        case .completed:
            guard kept != nil else {
                forwardOn(.completed)
                dispose()
                return
            }
            completeAfterKept = true
            sourceSubscription.dispose()
        }
    }

    private func send(_ element: Element) {
        kept = nil
        forwardNext(element)
        // Measured after delivery, so a slow observer still gets a full window of quiet.
        lastSentTime = parent.scheduler.now
    }

    private func timerFired(_ firedGeneration: UInt64) {
        guard firedGeneration == generation else { return }
        if let element = kept { send(element) }
        if completeAfterKept {
            forwardOn(.completed)
            dispose()
        }
    }
}

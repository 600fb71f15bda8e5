/// The integer types `interval` and `timer` count with: RxSwift's name for `FixedWidthInteger`,
/// kept so constraints written against RxSwift (`where Element: RxAbstractInteger`) compile.
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: FixedWidthInteger {
    /// An observable that sends 0, 1, 2, … every `period`, starting one `period` after
    /// subscription, until disposed. It never completes.
    ///
    /// Elements are sent on `scheduler` (on a Dispatch scheduler, by a timer on its queue). If
    /// an observer is still busy when the next period ends, the timer does not queue up ticks
    /// behind it. The counter wraps around at `Element.max`.
    ///
    /// ```swift
    /// Observable<Int>.interval(.seconds(1), scheduler: MainScheduler.instance)
    ///     .subscribe(onNext: { print($0) })
    /// // Prints 0 after one second, 1 after two seconds, …
    /// ```
    ///
    /// - Parameters:
    ///   - period: The time between elements, and before the first one.
    ///   - scheduler: Runs the timer and sends the elements.
    /// - Returns: An endless observable of increasing integers.
    public static func interval(_ period: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        TimerProducer(dueTime: period, period: period, scheduler: scheduler)
    }

    /// An observable that sends 0 after `dueTime`, then (with a `period`) 1, 2, … every
    /// `period`; without a `period` it completes right after the 0.
    ///
    /// Elements and completion are sent on `scheduler`. The periodic form never completes; the
    /// counter wraps around at `Element.max`.
    ///
    /// ```swift
    /// Observable<Int>.timer(.seconds(5), scheduler: scheduler)   // 0 after 5 s, then completed
    /// Observable<Int>.timer(.seconds(5), period: .seconds(1), scheduler: scheduler)  // 0, 1, 2, …
    /// ```
    ///
    /// - Parameters:
    ///   - dueTime: The time before the first element.
    ///   - period: The time between later elements, or `nil` for a single element.
    ///   - scheduler: Runs the timer and sends the events.
    /// - Returns: A one-element observable, or an endless one with a `period`.
    public static func timer(
        _ dueTime: RxTimeInterval,
        period: RxTimeInterval? = nil,
        scheduler: any SchedulerType
    ) -> Observable<Element> {
        TimerProducer(dueTime: dueTime, period: period, scheduler: scheduler)
    }
}

private final class TimerProducer<Element: FixedWidthInteger & Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let dueTime: RxTimeInterval
    let period: RxTimeInterval?
    let scheduler: any SchedulerType

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: any SchedulerType) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = TimerSink(observer: observer, downstream: downstream)
        guard let period else {
            let subscription = scheduler.scheduleRelative(sink, dueTime: dueTime) { sink in
                sink.forwardOn(.next(0))
                sink.forwardOn(.completed)
                sink.dispose()
                return Disposables.create()
            }
            sink.setSubscription(subscription)
            return sink
        }
        // `schedulePeriodic` runs one tick at a time (the state is threaded from tick to
        // tick), so the ticks need no lock of their own.
        let subscription = scheduler.schedulePeriodic(Element.zero, startAfter: dueTime, period: period) { count in
            sink.forwardOn(.next(count))
            return count &+ 1
        }
        sink.setSubscription(subscription)
        return sink
    }
}

private final class TimerSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: nothing beyond `Sink`.
}

extension ObservableType where Element: FixedWidthInteger {
    /// An observable that sends `count` consecutive integers from `start`, then completes.
    ///
    /// With the default ``CurrentThreadScheduler`` the integers are sent on the subscribing
    /// thread in one loop (no allocation per element) that stops as soon as the subscription
    /// is disposed; with another scheduler each integer is a scheduled step. A negative `count`
    /// fails with ``RxError/argumentOutOfRange``, and a range whose last integer would overflow
    /// `Element` fails with ``RxError/overflow`` (debug builds print a warning for both).
    ///
    /// ```swift
    /// Observable.range(start: 1, count: 3)
    /// // Prints: next(1), next(2), next(3), completed
    /// ```
    ///
    /// - Parameters:
    ///   - start: The first integer.
    ///   - count: How many integers to send.
    ///   - scheduler: Where the integers are sent.
    /// - Returns: A finite observable of integers.
    public static func range(
        start: Element,
        count: Element,
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        if count < 0 {
            reportMisuse(
                "range(start:count:) was called with a negative count (\(count)); it fails with argumentOutOfRange."
            )
            return Observable.error(RxError.argumentOutOfRange)
        }
        if count > 0, start.addingReportingOverflow(count - 1).overflow {
            reportMisuse("range(start: \(start), count: \(count)) overflows \(Element.self); it fails with overflow.")
            return Observable.error(RxError.overflow)
        }
        return RangeProducer(start: start, count: count, scheduler: scheduler)
    }
}

private final class RangeProducer<Element: FixedWidthInteger & Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let start: Element
    let count: Element
    let scheduler: any ImmediateSchedulerType

    init(start: Element, count: Element, scheduler: any ImmediateSchedulerType) {
        self.start = start
        self.count = count
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = RangeSink(observer: observer, downstream: downstream)
        let start = start
        let count = count
        if scheduler is CurrentThreadScheduler {
            // One trampolined loop, as `Observable.from` does: same order, no allocation per element.
            let subscription = scheduler.schedule(()) { _ in
                var offset: Element = 0
                while offset < count {
                    if sink.isDisposed { return Disposables.create() }
                    // Cannot overflow: `range` checked that `start + (count - 1)` fits.
                    sink.forwardOn(.next(start + offset))
                    offset += 1
                }
                sink.forwardOn(.completed)
                sink.dispose()
                return Disposables.create()
            }
            sink.setSubscription(subscription)
            return sink
        }
        let subscription = scheduler.scheduleRecursive(0 as Element) { offset, recurse in
            if offset < count {
                sink.forwardOn(.next(start + offset))
                recurse(offset + 1)
            } else {
                sink.forwardOn(.completed)
                sink.dispose()
            }
        }
        sink.setSubscription(subscription)
        return sink
    }
}

private final class RangeSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: nothing beyond `Sink`.
}

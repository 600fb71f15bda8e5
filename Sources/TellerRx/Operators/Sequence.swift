extension ObservableType {
    /// An observable that sends `elements` in order, then completes.
    ///
    /// With the default ``CurrentThreadScheduler`` the elements are sent on the subscribing
    /// thread before `subscribe` returns (or, inside other trampolined work, right after it).
    ///
    /// - Parameters:
    ///   - elements: The elements to send.
    ///   - scheduler: Where each element is sent.
    /// - Returns: A finite observable of `elements`.
    public static func of(
        _ elements: Element...,
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        SequenceProducer(elements: elements, scheduler: scheduler)
    }

    /// An observable that sends the elements of `array` in order, then completes.
    ///
    /// - Parameters:
    ///   - array: The elements to send.
    ///   - scheduler: Where each element is sent.
    /// - Returns: A finite observable of the array's elements.
    public static func from(
        _ array: [Element],
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        SequenceProducer(elements: array, scheduler: scheduler)
    }

    /// An observable that sends the elements of `sequence` in order, then completes.
    ///
    /// - Parameters:
    ///   - sequence: The elements to send; iterated once per subscription.
    ///   - scheduler: Where each element is sent.
    /// - Returns: An observable of the sequence's elements.
    public static func from<Source: Sequence & Sendable>(
        _ sequence: Source,
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> where Source.Element == Element {
        SequenceProducer(elements: Array(sequence), scheduler: scheduler)
    }

    /// An observable that sends `optional`'s value if it has one, then completes.
    ///
    /// - Parameters:
    ///   - optional: The value, or `nil` for an empty sequence.
    ///   - scheduler: Where the value is sent.
    /// - Returns: An observable of zero or one element.
    public static func from(
        optional: Element?,
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        SequenceProducer(elements: optional.map { [$0] } ?? [], scheduler: scheduler)
    }
}

private final class SequenceProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let elements: [Element]
    let scheduler: any ImmediateSchedulerType

    init(elements: [Element], scheduler: any ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = SequenceSink(observer: observer, downstream: downstream)
        let elements = elements
        if scheduler is CurrentThreadScheduler {
            // One trampolined loop instead of one scheduled action per element: same order,
            // no allocation per element.
            let subscription = scheduler.schedule(()) { _ in
                for element in elements {
                    if sink.isDisposed { return Disposables.create() }
                    sink.forwardNext(element)
                }
                sink.forwardOn(.completed)
                sink.dispose()
                return Disposables.create()
            }
            sink.setSubscription(subscription)
            return sink
        }
        let subscription = scheduler.scheduleRecursive(0) { index, recurse in
            if index < elements.count {
                sink.forwardNext(elements[index])
                recurse(index + 1)
            } else {
                sink.forwardOn(.completed)
                sink.dispose()
            }
        }
        sink.setSubscription(subscription)
        return sink
    }
}

private final class SequenceSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: nothing beyond `Sink`.
}

extension ObservableType {
    /// An observable that sends `element` over and over, without end, until disposed.
    ///
    /// Each element is one scheduled step on `scheduler`, so disposing the subscription stops
    /// it and other work queued on the same scheduler interleaves with it. On the default
    /// ``CurrentThreadScheduler`` the elements are sent on the subscribing thread and
    /// `subscribe` returns only once something downstream ends the subscription:
    ///
    /// ```swift
    /// Observable.repeatElement("a").take(3)
    /// // Prints: next(a), next(a), next(a), completed
    /// ```
    ///
    /// - Parameters:
    ///   - element: The element to send.
    ///   - scheduler: Where each element is sent.
    /// - Returns: An infinite observable.
    public static func repeatElement(
        _ element: Element,
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        RepeatElementProducer(element: element, scheduler: scheduler)
    }
}

private final class RepeatElementProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let element: Element
    let scheduler: any ImmediateSchedulerType

    init(element: Element, scheduler: any ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = RepeatElementSink(observer: observer, downstream: downstream)
        // A step per element rather than one loop: a loop would never yield the trampoline, so
        // a sibling source queued on it (in `zip`, `merge`, …) would never run.
        let subscription = scheduler.scheduleRecursive(element) { element, recurse in
            sink.forwardOn(.next(element))
            recurse(element)
        }
        sink.setSubscription(subscription)
        return sink
    }
}

private final class RepeatElementSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: nothing beyond `Sink`.
}

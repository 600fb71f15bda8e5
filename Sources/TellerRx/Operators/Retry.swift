extension ObservableType {
    /// Resubscribes to this sequence whenever it fails, until it completes.
    ///
    /// Each new attempt is subscribed on the thread that delivered the error (after the failed
    /// subscription is disposed). A source that fails synchronously while being subscribed is
    /// retried in a loop on the subscribing thread, not recursively, so the stack does not
    /// grow. **This may never end** if the source always fails.
    ///
    /// - Returns: The elements of every attempt, then the completion of the first attempt that
    ///   completes.
    public func retry() -> Observable<Element> {
        RetryProducer(source: asObservable(), maxAttemptCount: nil)
    }

    /// Subscribes to this sequence up to `maxAttemptCount` times in all while it fails.
    ///
    /// `maxAttemptCount` counts the first subscription: `retry(3)` retries twice. When the last
    /// attempt fails, its error is sent downstream. A count of 0 subscribes to nothing and
    /// completes at once, as in RxSwift. Attempts are subscribed as in ``retry()``.
    ///
    /// - Parameter maxAttemptCount: The most subscriptions to make, the first included.
    /// - Returns: The elements of every attempt, then the completion of the first attempt that
    ///   completes or the error of the last one.
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        if maxAttemptCount < 0 {
            reportMisuse("retry(\(maxAttemptCount)) with a negative count; completing without subscribing.")
        }
        return RetryProducer(source: asObservable(), maxAttemptCount: max(maxAttemptCount, 0))
    }
}

private final class RetryProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let maxAttemptCount: Int?

    init(source: Observable<Element>, maxAttemptCount: Int?) {
        self.source = source
        self.maxAttemptCount = maxAttemptCount
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = RetrySink(
            source: source,
            maxAttemptCount: maxAttemptCount,
            observer: observer,
            downstream: downstream
        )
        sink.start()
        return sink
    }
}

/// Resubscribes the one source while attempts are left.
private final class RetrySink<Observer: ObserverType>: ResubscribingSink<Observer>, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `attempts` is touched only by the resubscription loop (see the base class).
    private let source: Observable<Element>
    private let maxAttemptCount: Int?
    @exclusivity(unchecked) private var attempts = 0

    init(source: Observable<Element>, maxAttemptCount: Int?, observer: Observer, downstream: SubscriptionSlot?) {
        self.source = source
        self.maxAttemptCount = maxAttemptCount
        super.init(observer: observer, downstream: downstream)
    }

    override func nextSource() -> Observable<Element>? {
        if let maxAttemptCount, attempts >= maxAttemptCount { return nil }
        attempts &+= 1
        return source
    }
}

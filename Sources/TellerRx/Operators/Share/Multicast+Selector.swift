extension ObservableType {
    /// Shares one subscription to this sequence among every use of it inside `selector`,
    /// through a subject made for each subscriber.
    ///
    /// For each subscription, `subjectSelector` makes a subject and `selector` gets an
    /// observable backed by it (subscribing to that observable subscribes to the subject); the
    /// subscriber gets the sequence `selector` returns. That sequence is subscribed first, then
    /// this sequence is connected to the subject, once, so however many times `selector` uses
    /// its argument, this sequence is subscribed once per subscriber. The result ends when the
    /// selector's sequence ends; disposing it disposes that subscription and the connection.
    ///
    /// Both closures run on the subscribing thread, once per subscription. Events arrive on the
    /// thread the selector's sequence sends them. If either closure throws, the subscriber gets
    /// the error at once and this sequence is not subscribed.
    ///
    /// ```swift
    /// let sums = numbers.multicast({ PublishSubject<Int>() }) { shared in
    ///     Observable.zip(shared, shared.skip(1)) { $0 + $1 }   // `numbers` is subscribed once
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - subjectSelector: Makes the subject for one subscription.
    ///   - selector: Builds the result from the shared sequence.
    /// - Returns: The sequence `selector` builds, for each subscriber.
    public func multicast<Subject: SubjectType, Result: Sendable>(
        _ subjectSelector: @escaping @Sendable () throws -> Subject,
        selector: @escaping @Sendable (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        MulticastSelectorProducer(source: asObservable(), subjectSelector: subjectSelector, selector: selector)
    }
}

private final class MulticastSelectorProducer<Subject: SubjectType, Result: Sendable>: Producer<Result>,
    @unchecked Sendable
where Subject.Observer.Element: Sendable {
    // @unchecked: immutable.
    typealias SubjectSelector = @Sendable () throws -> Subject
    typealias Selector = @Sendable (Observable<Subject.Element>) throws -> Observable<Result>

    let source: Observable<Subject.Observer.Element>
    let subjectSelector: SubjectSelector
    let selector: Selector

    init(
        source: Observable<Subject.Observer.Element>,
        subjectSelector: @escaping SubjectSelector,
        selector: @escaping Selector
    ) {
        self.source = source
        self.subjectSelector = subjectSelector
        self.selector = selector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Result {
        let sink = MulticastSelectorSink(observer: observer, downstream: downstream)
        sink.setSubscription(sink.run(self))
        return sink
    }
}

/// Forwards the selector's sequence; the connection to the source lives as long as the
/// subscription.
private final class MulticastSelectorSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: nothing beyond `Sink`.
    func run<Subject: SubjectType>(_ parent: MulticastSelectorProducer<Subject, Observer.Element>) -> any Disposable {
        let connectable: ConnectableObservable<Subject.Element>
        let selected: Observable<Observer.Element>
        do {
            connectable = parent.source.multicast(try parent.subjectSelector())
            selected = try parent.selector(connectable.asObservable())
        } catch {
            forwardErrorAndDispose(error)
            return Disposables.create()
        }
        let subscription = selected.subscribe(self)
        let connection = connectable.connect()
        return BinaryDisposable(subscription, connection)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Observer.Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Observer.Element>) {
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }
}

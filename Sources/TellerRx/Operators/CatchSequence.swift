extension ObservableType {
    /// Subscribes to the sequences of `sequence` in turn, moving on to the next one each time
    /// the current one fails, until one completes.
    ///
    /// The first sequence is subscribed on the subscribing thread; each later one on the thread
    /// that delivered the previous one's error, after that failed subscription is disposed. A
    /// sequence that fails synchronously while being subscribed is replaced in a loop, not
    /// recursively. Elements of every attempt are passed on. When a sequence completes, so
    /// does the result; when the last one fails, its error is sent downstream. An empty
    /// `sequence` completes at once. `sequence` is iterated lazily, once per subscription.
    ///
    /// ```swift
    /// Observable.catch(sequence: [primaryServer, mirror, Observable.just(cachedValue)])
    /// ```
    ///
    /// - Parameter sequence: The sequences to try, in order.
    /// - Returns: The elements of each attempt, ending like the first one that completes or
    ///   like the last one.
    public static func `catch`<Sources: Sequence & Sendable>(sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        CatchSequenceProducer(sources: sequence)
    }

    /// The RxSwift 5 spelling of ``ObservableType/catch(sequence:)``; identical behaviour.
    ///
    /// - Parameter sequence: The sequences to try, in order.
    /// - Returns: The elements of each attempt, ending like the first one that completes or
    ///   like the last one.
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sources: Sequence & Sendable>(_ sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        CatchSequenceProducer(sources: sequence)
    }
}

private final class CatchSequenceProducer<Sources: Sequence & Sendable, Element: Sendable>: Producer<
    Element
>, @unchecked Sendable
where Sources.Element == Observable<Element> {
    // @unchecked: immutable.
    let sources: Sources

    init(sources: Sources) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = CatchSequenceSink(sources: sources.makeIterator(), observer: observer, downstream: downstream)
        sink.start()
        return sink
    }
}

/// Subscribes the sources in turn.
private final class CatchSequenceSink<Sources: IteratorProtocol, Observer: ObserverType>: ResubscribingSink<Observer>,
    @unchecked Sendable
where Sources.Element == Observable<Observer.Element> {
    // @unchecked: `sources` is touched only by the resubscription loop (see the base class).
    @exclusivity(unchecked) private var sources: Sources

    init(sources: Sources, observer: Observer, downstream: SubscriptionSlot?) {
        self.sources = sources
        super.init(observer: observer, downstream: downstream)
    }

    override func nextSource() -> Observable<Element>? {
        sources.next()
    }
}

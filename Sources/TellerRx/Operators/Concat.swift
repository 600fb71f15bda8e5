extension ObservableType {
    /// Sends this sequence's elements, then, once it completes, the elements of `second`.
    ///
    /// `second` is subscribed only when this sequence completes. An error from either ends the
    /// result at once. Events are delivered on the thread of the source that sends them.
    ///
    /// - Parameter second: The sequence to continue with.
    /// - Returns: An observable of this sequence's elements followed by `second`'s.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
    where Source.Element == Element {
        ConcatProducer(sources: [asObservable(), second.asObservable()])
    }

    /// Sends the elements of each sequence of `sequence` in turn: the next one is subscribed
    /// only after the previous one completed.
    ///
    /// `sequence` is iterated lazily, once per subscription, so it may be long or unbounded.
    /// The result completes after the last sequence completes (at once if there is none). An
    /// error from any of them ends the result at once. Events are delivered on the thread of
    /// the source that sends them; a source that completes synchronously does not deepen the
    /// stack, so long chains are safe.
    ///
    /// - Parameter sequence: The sequences to concatenate.
    /// - Returns: An observable of all their elements, one sequence after another.
    public static func concat<Sources: Sequence & Sendable>(_ sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        ConcatProducer(sources: sequence)
    }

    /// Sends the elements of each sequence of `collection` in turn: the next one is subscribed
    /// only after the previous one completed.
    ///
    /// The result completes after the last sequence completes (at once for an empty
    /// collection). An error from any of them ends the result at once. Events are delivered on
    /// the thread of the source that sends them.
    ///
    /// - Parameter collection: The sequences to concatenate.
    /// - Returns: An observable of all their elements, one sequence after another.
    public static func concat<Sources: Collection & Sendable>(_ collection: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        ConcatProducer(sources: collection)
    }

    /// Sends the elements of each of `sources` in turn: the next one is subscribed only after
    /// the previous one completed.
    ///
    /// The result completes after the last source completes. An error from any of them ends
    /// the result at once. Events are delivered on the thread of the source that sends them.
    ///
    /// ```swift
    /// let page = Observable.concat(cachedItems, freshItems)  // cache first, then network
    /// ```
    ///
    /// - Parameter sources: The sequences to concatenate.
    /// - Returns: An observable of all their elements, one sequence after another.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        ConcatProducer(sources: sources)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Sends the elements of each inner sequence in turn: an inner sequence is subscribed only
    /// after the previous one completed; inner sequences that arrive meanwhile wait in a queue.
    ///
    /// The same as `merge(maxConcurrent: 1)`. The result completes once this sequence and
    /// every inner sequence have completed. An error from any of them ends it at once.
    ///
    /// - Returns: An observable of the elements of the inner sequences, one after another.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

private final class ConcatProducer<Sources: Sequence & Sendable>: Producer<Sources.Element.Element>,
    @unchecked Sendable
where Sources.Element: ObservableConvertibleType {
    // @unchecked: immutable.
    let sources: Sources

    init(sources: Sources) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Sources.Element.Element {
        let sink = ConcatSink(sources: sources.makeIterator(), observer: observer, downstream: downstream)
        sink.subscribeNext()
        return sink
    }
}

/// Subscribes the sources one after another. Only one source is subscribed at a time and a
/// well-behaved source sends nothing after completing, so forwarding needs no lock; moving
/// on is a drain loop on an atomic counter, which keeps synchronous completions from
/// recursing and hands the iterator from thread to thread safely.
private final class ConcatSink<Sources: IteratorProtocol, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Observer.Element {
    // @unchecked: `sources` is only touched by the thread that owns the drain loop (it took
    // `pendingMoves` from 0), handed from owner to owner by the count's changes.
    @exclusivity(unchecked) private var sources: Sources
    private let pendingMoves = AtomicState(0)
    private let current = SerialSlot()

    init(sources: Sources, observer: Observer, downstream: SubscriptionSlot?) {
        self.sources = sources
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Observer.Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            subscribeNext()
        }
    }

    /// Subscribes the next source, or completes when there is none. A call made while
    /// another is looping (a source that completed during `subscribe`, on this thread or
    /// another) only counts itself; the looping caller goes round again.
    func subscribeNext() {
        guard pendingMoves.increment() == 1 else { return }
        repeat {
            if isDisposed { return }
            guard let next = sources.next() else {
                forwardOn(.completed)
                dispose()
                return
            }
            let slot = SubscriptionSlot()
            // Disposes the previous, completed source's subscription.
            guard current.replace(with: slot) else { return }
            next.asObservable().subscribeEnteringTrampoline(self, upstreamOf: slot)
        } while pendingMoves.decrement() != 0
    }

    override func dispose() {
        super.dispose()
        current.dispose()
    }
}

extension ObservableType {
    /// Merges the elements of `sources` into one sequence, in the order they arrive.
    ///
    /// All sources are subscribed at once, in order. The result completes once every source
    /// has completed (at once for an empty collection). An error from any source is sent at
    /// once and disposes the other sources. Events are delivered on the thread of the source
    /// that sent them, one at a time, never overlapping.
    ///
    /// - Parameter sources: The sequences to merge.
    /// - Returns: An observable of the elements of every source.
    public static func merge<Sources: Collection>(_ sources: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        MergeArrayProducer(sources: Array(sources))
    }

    /// Merges the elements of `sources` into one sequence, in the order they arrive.
    ///
    /// All sources are subscribed at once, in order. The result completes once every source
    /// has completed (at once for an empty array). An error from any source is sent at once
    /// and disposes the other sources. Events are delivered on the thread of the source that
    /// sent them, one at a time, never overlapping.
    ///
    /// - Parameter sources: The sequences to merge.
    /// - Returns: An observable of the elements of every source.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }

    /// Merges the elements of `sources` into one sequence, in the order they arrive.
    ///
    /// All sources are subscribed at once, in order. The result completes once every source
    /// has completed. An error from any source is sent at once and disposes the other
    /// sources. Events are delivered on the thread of the source that sent them, one at a
    /// time, never overlapping.
    ///
    /// ```swift
    /// let taps = Observable.merge(saveTaps, shortcutTaps)
    /// ```
    ///
    /// - Parameter sources: The sequences to merge.
    /// - Returns: An observable of the elements of every source.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the elements of every inner sequence this sequence sends, in the order they arrive.
    ///
    /// Each inner sequence is subscribed as soon as it arrives. The result completes once this
    /// sequence and every inner sequence have completed. An error from this sequence or any
    /// inner sequence is sent at once and disposes everything. Events are delivered on the
    /// thread that sends them, one at a time, never overlapping.
    ///
    /// - Returns: An observable of the elements of every inner sequence.
    @inlinable
    public func merge() -> Observable<Element.Element> {
        MergeProducer(source: asObservable(), limit: .unlimited) { $0 }
    }

    /// Merges the elements of the inner sequences this sequence sends, with at most
    /// `maxConcurrent` of them subscribed at a time.
    ///
    /// An inner sequence that arrives while `maxConcurrent` are running waits in a queue and
    /// is subscribed, in arrival order, when one of them completes. The result completes once
    /// this sequence and every inner sequence (running or queued) have completed. An error
    /// from this sequence or any inner sequence is sent at once and disposes everything.
    /// Events are delivered on the thread that sends them, one at a time, never overlapping.
    ///
    /// - Parameter maxConcurrent: The most inner sequences subscribed at once; at least 1
    ///   (smaller values are reported in debug builds and treated as 1).
    /// - Returns: An observable of the elements of every inner sequence.
    @inlinable
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        MergeProducer(source: asObservable(), limit: .queue(maxConcurrent: maxConcurrent)) { $0 }
    }
}

private final class MergeArrayProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = MergeSink<Observable<Element>, Observable<Element>, Observer>(
            selector: { $0 },
            limit: .unlimited,
            observer: observer,
            downstream: downstream
        )
        sink.setSubscription(sink.run(sources: sources))
        return sink
    }
}

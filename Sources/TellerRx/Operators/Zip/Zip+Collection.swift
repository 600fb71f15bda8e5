extension ObservableType {
    /// Pairs up the elements of every source in `collection` by index and combines each group
    /// with `resultSelector`.
    ///
    /// The n-th result combines the n-th element of every source, in the collection's order:
    /// elements wait in a queue per source until every source has sent its n-th one. The
    /// result completes when every source has completed (at once for an empty collection), or,
    /// as RxSwift 6's collection `zip` does, when an element arrives while every other source is
    /// done and one of them has nothing queued. An error from any source, or thrown by
    /// `resultSelector`, is sent at once and disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element completed a group, or on
    /// the thread delivering an earlier result at that moment, right after it; never twice at
    /// once, never under the operator's lock. Results are delivered in order, one at a time.
    ///
    /// - Parameters:
    ///   - collection: The sources, all of the same element type.
    ///   - resultSelector: Combines the n-th element of each source.
    /// - Returns: An observable of the results for each group of elements with the same index.
    public static func zip<Sources: Collection>(
        _ collection: Sources,
        resultSelector: @escaping @Sendable ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableType {
        typealias SourceElement = Sources.Element.Element
        let sources: [ZipSource<Element>] = collection.map { ZipSourceOf<SourceElement, Element>($0) }
        let count = sources.count
        return ZipProducer(sources: sources, completion: .whenUnpairable) { storages in
            try resultSelector((0..<count).map { dequeueFirst(storages, $0, as: SourceElement.self) })
        }
    }

    /// Pairs up the elements of every source in `collection` by index into arrays.
    ///
    /// The n-th array holds the n-th element of every source, in the collection's order. The
    /// result completes when every source has completed (at once for an empty collection), or
    /// when an element arrives while every other source is done and one of them has nothing
    /// queued. An error from any source is sent at once and disposes every source. Arrays are
    /// delivered one at a time, never overlapping.
    ///
    /// - Parameter collection: The sources.
    /// - Returns: An observable of arrays of the elements with the same index.
    public static func zip<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableType, Sources.Element.Element == Element {
        Observable<[Element]>.zip(collection) { $0 }
    }
}

extension ObservableType {
    /// Combines the latest elements of every source in `collection` with `resultSelector`
    /// whenever any of them sends an element.
    ///
    /// A result is sent each time a source sends an element, once every source has sent at
    /// least one; `resultSelector` gets the latest elements in the collection's order. The
    /// result completes when every source has completed, or when a source sends an element
    /// while another source is done without ever having sent one. An empty collection, as in
    /// RxSwift 6, sends `resultSelector([])` and completes at once. An error from any source,
    /// or thrown by `resultSelector`, is sent at once and disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element triggered it, or on the
    /// thread delivering an earlier result at that moment, right after it; never twice at once,
    /// never under the operator's lock. Results are delivered in order, one at a time.
    ///
    /// - Parameters:
    ///   - collection: The sources, all of the same element type.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An observable of the results for the sources' latest elements.
    @inlinable
    public static func combineLatest<Sources: Collection>(
        _ collection: Sources,
        resultSelector: @escaping @Sendable ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableType {
        typealias SourceElement = Sources.Element.Element
        let sources: [MultiSourceInput] = collection.map {
            CombineLatestSourceOf<SourceElement>($0.asObservable())
        }
        let count = sources.count
        return CombineLatestProducer(sources: sources) { storages in
            try resultSelector((0..<count).map { latest(storages, $0, as: SourceElement.self) })
        }
    }

    /// Combines the latest elements of every source in `collection` into arrays whenever any
    /// of them sends an element.
    ///
    /// An array (in the collection's order) is sent each time a source sends an element, once
    /// every source has sent at least one. The result completes when every source has
    /// completed, or when a source sends an element while another source is done without ever
    /// having sent one. An empty collection, as in RxSwift 6, sends `[]` and completes at once. An error from any source is sent
    /// at once and disposes every source. Arrays are delivered one at a time, never
    /// overlapping, on the thread of the source whose element triggered them.
    ///
    /// - Parameter collection: The sources.
    /// - Returns: An observable of arrays of the sources' latest elements.
    @inlinable
    public static func combineLatest<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableType, Sources.Element.Element == Element {
        Observable<[Element]>.combineLatest(collection) { $0 }
    }
}

// Combining infallibles: each forwards to the observable operator of the same name (see there
// for threads, ordering and completion) and wraps the result again.

extension InfallibleType {
    /// Sends this sequence's elements, then, once it completes, the elements of `second`.
    ///
    /// - Parameter second: The sequence to continue with.
    /// - Returns: An infallible of both sequences' elements, one after the other.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Infallible<Element>
    where Source.Element == Element {
        Infallible(asObservable().concat(second.asObservable()))
    }

    /// Combines each element of this sequence with the latest element of `second`, using
    /// `resultSelector`; elements sent before `second` has sent any are dropped.
    ///
    /// - Parameters:
    ///   - second: The infallible whose latest element is used.
    ///   - resultSelector: Combines an element of this sequence with `second`'s latest.
    /// - Returns: An infallible of the combined values.
    public func withLatestFrom<Source: InfallibleType, ResultType: Sendable>(
        _ second: Source,
        resultSelector: @escaping @Sendable (Element, Source.Element) throws -> ResultType
    ) -> Infallible<ResultType> {
        Infallible(asObservable().withLatestFrom(second.asObservable(), resultSelector: resultSelector))
    }

    /// Sends the latest element of `second` each time this sequence sends an element (once
    /// `second` has sent one).
    ///
    /// - Parameter second: The infallible whose latest element is sent.
    /// - Returns: An infallible of `second`'s latest elements.
    public func withLatestFrom<Source: InfallibleType>(_ second: Source) -> Infallible<Source.Element> {
        Infallible(asObservable().withLatestFrom(second.asObservable()))
    }
}

extension Infallible {
    /// Sends the elements of each infallible of `sequence` in turn, the next once the previous
    /// one has completed.
    ///
    /// - Parameter sequence: The infallibles to concatenate, read once, at this call.
    /// - Returns: An infallible of all their elements, one sequence after another.
    public static func concat<Sources: Sequence>(_ sequence: Sources) -> Infallible<Element>
    where Sources.Element == Infallible<Element> {
        Infallible(Observable.concat(sequence.map { $0.asObservable() }))
    }

    /// Sends the elements of each of `sources` in turn, the next once the previous one has
    /// completed.
    ///
    /// - Parameter sources: The infallibles to concatenate.
    /// - Returns: An infallible of all their elements, one sequence after another.
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of every infallible of `sources` as they arrive.
    ///
    /// RxSwift's collection form of `Infallible.merge` concatenates instead; this one merges,
    /// like every other `merge`.
    ///
    /// - Parameter sources: The infallibles to merge.
    /// - Returns: An infallible of all their elements, completing when all of them have.
    public static func merge<Sources: Collection>(_ sources: Sources) -> Infallible<Element>
    where Sources.Element == Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of every infallible of `sources` as they arrive.
    ///
    /// - Parameter sources: The infallibles to merge.
    /// - Returns: An infallible of all their elements, completing when all of them have.
    public static func merge(_ sources: [Infallible<Element>]) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of every one of `sources` as they arrive.
    ///
    /// - Parameter sources: The infallibles to merge.
    /// - Returns: An infallible of all their elements, completing when all of them have.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }
}

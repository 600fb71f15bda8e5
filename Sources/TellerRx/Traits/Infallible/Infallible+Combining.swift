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

    /// Combines the latest elements of two infallibles with `resultSelector` whenever either
    /// sends one (see ``ObservableType/combineLatest(_:_:resultSelector:)``).
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An infallible of the results.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        resultSelector: @escaping @Sendable (I1.Element, I2.Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector)
        )
    }

    /// Combines the latest elements of three infallibles with `resultSelector` whenever any of
    /// them sends one.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An infallible of the results.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        resultSelector: @escaping @Sendable (I1.Element, I2.Element, I3.Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(),
                source2.asObservable(),
                source3.asObservable(),
                resultSelector: resultSelector
            )
        )
    }

    /// Combines the latest elements of four infallibles with `resultSelector` whenever any of
    /// them sends one.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An infallible of the results.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        resultSelector: @escaping @Sendable (I1.Element, I2.Element, I3.Element, I4.Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(),
                source2.asObservable(),
                source3.asObservable(),
                source4.asObservable(),
                resultSelector: resultSelector
            )
        )
    }

    /// Pairs up the elements of two infallibles by index with `resultSelector` (see
    /// ``ObservableType/zip(_:_:resultSelector:)``).
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - resultSelector: Combines the elements with the same index.
    /// - Returns: An infallible of the results.
    public static func zip<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        resultSelector: @escaping @Sendable (I1.Element, I2.Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.zip(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
    }

    /// Pairs up the elements of three infallibles by index with `resultSelector`.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - resultSelector: Combines the elements with the same index.
    /// - Returns: An infallible of the results.
    public static func zip<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        resultSelector: @escaping @Sendable (I1.Element, I2.Element, I3.Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(),
                source2.asObservable(),
                source3.asObservable(),
                resultSelector: resultSelector
            )
        )
    }

    /// Pairs up the elements of four infallibles by index with `resultSelector`.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - resultSelector: Combines the elements with the same index.
    /// - Returns: An infallible of the results.
    public static func zip<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        resultSelector: @escaping @Sendable (I1.Element, I2.Element, I3.Element, I4.Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(),
                source2.asObservable(),
                source3.asObservable(),
                source4.asObservable(),
                resultSelector: resultSelector
            )
        )
    }
}

extension Infallible where Element == any Sendable {
    /// Combines the latest elements of two infallibles into tuples whenever either sends one.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    /// - Returns: An infallible of tuples of the latest elements.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1,
        _ source2: I2
    ) -> Infallible<(I1.Element, I2.Element)> {
        Infallible<(I1.Element, I2.Element)>.combineLatest(source1, source2) { ($0, $1) }
    }

    /// Combines the latest elements of three infallibles into tuples whenever any sends one.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    /// - Returns: An infallible of tuples of the latest elements.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3
    ) -> Infallible<(I1.Element, I2.Element, I3.Element)> {
        Infallible<(I1.Element, I2.Element, I3.Element)>.combineLatest(source1, source2, source3) { ($0, $1, $2) }
    }

    /// Pairs up the elements of two infallibles by index into tuples.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    /// - Returns: An infallible of tuples of the elements with the same index.
    public static func zip<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1,
        _ source2: I2
    ) -> Infallible<(I1.Element, I2.Element)> {
        Infallible<(I1.Element, I2.Element)>.zip(source1, source2) { ($0, $1) }
    }

    /// Pairs up the elements of three infallibles by index into tuples.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    /// - Returns: An infallible of tuples of the elements with the same index.
    public static func zip<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3
    ) -> Infallible<(I1.Element, I2.Element, I3.Element)> {
        Infallible<(I1.Element, I2.Element, I3.Element)>.zip(source1, source2, source3) { ($0, $1, $2) }
    }
}

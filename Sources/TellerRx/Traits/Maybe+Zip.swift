// `zip` for maybes: the arity overloads (2 to 8, with a result selector or into a tuple) and the
// collection forms, thin wrappers over the observable `zip` (Operators/Zip/).

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds when both maybes have succeeded, with `resultSelector` applied to their elements.
    ///
    /// The maybes are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the maybe that succeeds last. The first failure, or an error thrown by
    /// `resultSelector`, fails the result at once and disposes the other maybes. If a maybe
    /// completes empty, the result completes empty once every maybe has ended.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A maybe of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        resultSelector: @escaping @Sendable (E1, E2) throws -> Element
    ) -> Maybe<Element> {
        Maybe(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == any Sendable, Trait == MaybeTrait {
    /// Succeeds when both maybes have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    /// - Returns: A maybe of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>
    ) -> Maybe<(E1, E2)> {
        Maybe(raw: Observable.zip(source1.source, source2.source))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds when all three maybes have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The maybes are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the maybe that succeeds last. The first failure, or an error thrown by
    /// `resultSelector`, fails the result at once and disposes the other maybes. If a maybe
    /// completes empty, the result completes empty once every maybe has ended.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A maybe of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        resultSelector: @escaping @Sendable (E1, E2, E3) throws -> Element
    ) -> Maybe<Element> {
        Maybe(raw: Observable.zip(source1.source, source2.source, source3.source, resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == any Sendable, Trait == MaybeTrait {
    /// Succeeds when all three maybes have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    /// - Returns: A maybe of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>
    ) -> Maybe<(E1, E2, E3)> {
        Maybe(raw: Observable.zip(source1.source, source2.source, source3.source))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds when all four maybes have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The maybes are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the maybe that succeeds last. The first failure, or an error thrown by
    /// `resultSelector`, fails the result at once and disposes the other maybes. If a maybe
    /// completes empty, the result completes empty once every maybe has ended.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A maybe of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4) throws -> Element
    ) -> Maybe<Element> {
        Maybe(
            raw: Observable.zip(
                source1.source,
                source2.source,
                source3.source,
                source4.source,
                resultSelector: resultSelector
            )
        )
    }
}

extension PrimitiveSequenceType where Element == any Sendable, Trait == MaybeTrait {
    /// Succeeds when all four maybes have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    /// - Returns: A maybe of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>
    ) -> Maybe<(E1, E2, E3, E4)> {
        Maybe(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds when all five maybes have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The maybes are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the maybe that succeeds last. The first failure, or an error thrown by
    /// `resultSelector`, fails the result at once and disposes the other maybes. If a maybe
    /// completes empty, the result completes empty once every maybe has ended.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    ///   - source5: Maybe 5.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A maybe of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5) throws -> Element
    ) -> Maybe<Element> {
        Maybe(
            raw: Observable.zip(
                source1.source,
                source2.source,
                source3.source,
                source4.source,
                source5.source,
                resultSelector: resultSelector
            )
        )
    }
}

extension PrimitiveSequenceType where Element == any Sendable, Trait == MaybeTrait {
    /// Succeeds when all five maybes have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    ///   - source5: Maybe 5.
    /// - Returns: A maybe of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>
    ) -> Maybe<(E1, E2, E3, E4, E5)> {
        Maybe(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds when all six maybes have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The maybes are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the maybe that succeeds last. The first failure, or an error thrown by
    /// `resultSelector`, fails the result at once and disposes the other maybes. If a maybe
    /// completes empty, the result completes empty once every maybe has ended.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    ///   - source5: Maybe 5.
    ///   - source6: Maybe 6.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A maybe of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> Maybe<Element> {
        Maybe(
            raw: Observable.zip(
                source1.source,
                source2.source,
                source3.source,
                source4.source,
                source5.source,
                source6.source,
                resultSelector: resultSelector
            )
        )
    }
}

extension PrimitiveSequenceType where Element == any Sendable, Trait == MaybeTrait {
    /// Succeeds when all six maybes have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    ///   - source5: Maybe 5.
    ///   - source6: Maybe 6.
    /// - Returns: A maybe of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>
    ) -> Maybe<(E1, E2, E3, E4, E5, E6)> {
        Maybe(
            raw: Observable.zip(
                source1.source,
                source2.source,
                source3.source,
                source4.source,
                source5.source,
                source6.source
            )
        )
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds when all seven maybes have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The maybes are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the maybe that succeeds last. The first failure, or an error thrown by
    /// `resultSelector`, fails the result at once and disposes the other maybes. If a maybe
    /// completes empty, the result completes empty once every maybe has ended.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    ///   - source5: Maybe 5.
    ///   - source6: Maybe 6.
    ///   - source7: Maybe 7.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A maybe of the combined elements.
    public static func zip<
        E1: Sendable,
        E2: Sendable,
        E3: Sendable,
        E4: Sendable,
        E5: Sendable,
        E6: Sendable,
        E7: Sendable
    >(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7) throws -> Element
    ) -> Maybe<Element> {
        Maybe(
            raw: Observable.zip(
                source1.source,
                source2.source,
                source3.source,
                source4.source,
                source5.source,
                source6.source,
                source7.source,
                resultSelector: resultSelector
            )
        )
    }
}

extension PrimitiveSequenceType where Element == any Sendable, Trait == MaybeTrait {
    /// Succeeds when all seven maybes have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    ///   - source5: Maybe 5.
    ///   - source6: Maybe 6.
    ///   - source7: Maybe 7.
    /// - Returns: A maybe of the tuple of elements.
    public static func zip<
        E1: Sendable,
        E2: Sendable,
        E3: Sendable,
        E4: Sendable,
        E5: Sendable,
        E6: Sendable,
        E7: Sendable
    >(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>
    ) -> Maybe<(E1, E2, E3, E4, E5, E6, E7)> {
        Maybe(
            raw: Observable.zip(
                source1.source,
                source2.source,
                source3.source,
                source4.source,
                source5.source,
                source6.source,
                source7.source
            )
        )
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds when all eight maybes have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The maybes are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the maybe that succeeds last. The first failure, or an error thrown by
    /// `resultSelector`, fails the result at once and disposes the other maybes. If a maybe
    /// completes empty, the result completes empty once every maybe has ended.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    ///   - source5: Maybe 5.
    ///   - source6: Maybe 6.
    ///   - source7: Maybe 7.
    ///   - source8: Maybe 8.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A maybe of the combined elements.
    public static func zip<
        E1: Sendable,
        E2: Sendable,
        E3: Sendable,
        E4: Sendable,
        E5: Sendable,
        E6: Sendable,
        E7: Sendable,
        E8: Sendable
    >(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>,
        _ source8: PrimitiveSequence<Trait, E8>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
    ) -> Maybe<Element> {
        Maybe(
            raw: Observable.zip(
                source1.source,
                source2.source,
                source3.source,
                source4.source,
                source5.source,
                source6.source,
                source7.source,
                source8.source,
                resultSelector: resultSelector
            )
        )
    }
}

extension PrimitiveSequenceType where Element == any Sendable, Trait == MaybeTrait {
    /// Succeeds when all eight maybes have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Maybe 1.
    ///   - source2: Maybe 2.
    ///   - source3: Maybe 3.
    ///   - source4: Maybe 4.
    ///   - source5: Maybe 5.
    ///   - source6: Maybe 6.
    ///   - source7: Maybe 7.
    ///   - source8: Maybe 8.
    /// - Returns: A maybe of the tuple of elements.
    public static func zip<
        E1: Sendable,
        E2: Sendable,
        E3: Sendable,
        E4: Sendable,
        E5: Sendable,
        E6: Sendable,
        E7: Sendable,
        E8: Sendable
    >(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>,
        _ source8: PrimitiveSequence<Trait, E8>
    ) -> Maybe<(E1, E2, E3, E4, E5, E6, E7, E8)> {
        Maybe(
            raw: Observable.zip(
                source1.source,
                source2.source,
                source3.source,
                source4.source,
                source5.source,
                source6.source,
                source7.source,
                source8.source
            )
        )
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds when every maybe of `collection` has succeeded, with `resultSelector` applied to
    /// their elements, in the collection's order.
    ///
    /// The maybes are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the maybe that succeeds last. The first failure, or an error thrown by
    /// `resultSelector`, fails the result at once and disposes the other maybes. If a maybe
    /// completes empty, the result completes empty once every maybe has ended. For an empty
    /// collection, as for a single, the result succeeds at once with `resultSelector([])`, called
    /// on the subscribing thread.
    ///
    /// - Parameters:
    ///   - collection: The maybes, all of the same element type.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A maybe of the combined elements.
    public static func zip<Sources: Collection, Result: Sendable>(
        _ collection: Sources,
        resultSelector: @escaping @Sendable ([Element]) throws -> Result
    ) -> Maybe<Result> where Sources.Element == Maybe<Element> {
        if collection.isEmpty {
            return Maybe(raw: Observable.deferred { .just(try resultSelector([])) })
        }
        return Maybe(raw: Observable.zip(collection.map(\.source), resultSelector: resultSelector))
    }

    /// Succeeds when every maybe of `collection` has succeeded, with an array of their
    /// elements, in the collection's order.
    ///
    /// Threads and errors work as in `zip(_:resultSelector:)`. For an empty collection, as for
    /// a single, the result succeeds at once with an empty array.
    ///
    /// - Parameter collection: The maybes.
    /// - Returns: A maybe of the array of elements.
    public static func zip<Sources: Collection>(_ collection: Sources) -> Maybe<[Element]>
    where Sources.Element == Maybe<Element> {
        if collection.isEmpty {
            return Maybe(raw: Observable.just([]))
        }
        return Maybe(raw: Observable.zip(collection.map(\.source)))
    }
}

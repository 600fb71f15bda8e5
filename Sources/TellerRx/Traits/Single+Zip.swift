// `zip` for singles: the arity overloads (2 to 8, with a result selector or into a tuple) and the
// collection forms, thin wrappers over the observable `zip` (Operators/Zip/).

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds when both singles have succeeded, with `resultSelector` applied to their elements.
    ///
    /// The singles are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the single that succeeds last. The first failure, or an error thrown
    /// by `resultSelector`, fails the result at once and disposes the other singles.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A single of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        resultSelector: @escaping @Sendable (E1, E2) throws -> Element
    ) -> Single<Element> {
        Single(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == any Sendable, Trait == SingleTrait {
    /// Succeeds when both singles have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    /// - Returns: A single of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>
    ) -> Single<(E1, E2)> {
        Single(raw: Observable.zip(source1.source, source2.source))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds when all three singles have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The singles are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the single that succeeds last. The first failure, or an error thrown
    /// by `resultSelector`, fails the result at once and disposes the other singles.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A single of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        resultSelector: @escaping @Sendable (E1, E2, E3) throws -> Element
    ) -> Single<Element> {
        Single(raw: Observable.zip(source1.source, source2.source, source3.source, resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == any Sendable, Trait == SingleTrait {
    /// Succeeds when all three singles have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    /// - Returns: A single of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>
    ) -> Single<(E1, E2, E3)> {
        Single(raw: Observable.zip(source1.source, source2.source, source3.source))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds when all four singles have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The singles are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the single that succeeds last. The first failure, or an error thrown
    /// by `resultSelector`, fails the result at once and disposes the other singles.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A single of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4) throws -> Element
    ) -> Single<Element> {
        Single(
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

extension PrimitiveSequenceType where Element == any Sendable, Trait == SingleTrait {
    /// Succeeds when all four singles have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    /// - Returns: A single of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>
    ) -> Single<(E1, E2, E3, E4)> {
        Single(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds when all five singles have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The singles are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the single that succeeds last. The first failure, or an error thrown
    /// by `resultSelector`, fails the result at once and disposes the other singles.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    ///   - source5: Single 5.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A single of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5) throws -> Element
    ) -> Single<Element> {
        Single(
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

extension PrimitiveSequenceType where Element == any Sendable, Trait == SingleTrait {
    /// Succeeds when all five singles have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    ///   - source5: Single 5.
    /// - Returns: A single of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>
    ) -> Single<(E1, E2, E3, E4, E5)> {
        Single(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds when all six singles have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The singles are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the single that succeeds last. The first failure, or an error thrown
    /// by `resultSelector`, fails the result at once and disposes the other singles.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    ///   - source5: Single 5.
    ///   - source6: Single 6.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A single of the combined elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> Single<Element> {
        Single(
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

extension PrimitiveSequenceType where Element == any Sendable, Trait == SingleTrait {
    /// Succeeds when all six singles have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    ///   - source5: Single 5.
    ///   - source6: Single 6.
    /// - Returns: A single of the tuple of elements.
    public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>
    ) -> Single<(E1, E2, E3, E4, E5, E6)> {
        Single(
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

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds when all seven singles have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The singles are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the single that succeeds last. The first failure, or an error thrown
    /// by `resultSelector`, fails the result at once and disposes the other singles.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    ///   - source5: Single 5.
    ///   - source6: Single 6.
    ///   - source7: Single 7.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A single of the combined elements.
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
    ) -> Single<Element> {
        Single(
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

extension PrimitiveSequenceType where Element == any Sendable, Trait == SingleTrait {
    /// Succeeds when all seven singles have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    ///   - source5: Single 5.
    ///   - source6: Single 6.
    ///   - source7: Single 7.
    /// - Returns: A single of the tuple of elements.
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
    ) -> Single<(E1, E2, E3, E4, E5, E6, E7)> {
        Single(
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

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds when all eight singles have succeeded, with `resultSelector` applied to their
    /// elements.
    ///
    /// The singles are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the single that succeeds last. The first failure, or an error thrown
    /// by `resultSelector`, fails the result at once and disposes the other singles.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    ///   - source5: Single 5.
    ///   - source6: Single 6.
    ///   - source7: Single 7.
    ///   - source8: Single 8.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A single of the combined elements.
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
    ) -> Single<Element> {
        Single(
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

extension PrimitiveSequenceType where Element == any Sendable, Trait == SingleTrait {
    /// Succeeds when all eight singles have succeeded, with a tuple of their elements.
    ///
    /// Threads and errors work as in `zip(_:_:_:_:_:_:_:_:resultSelector:)`.
    ///
    /// - Parameters:
    ///   - source1: Single 1.
    ///   - source2: Single 2.
    ///   - source3: Single 3.
    ///   - source4: Single 4.
    ///   - source5: Single 5.
    ///   - source6: Single 6.
    ///   - source7: Single 7.
    ///   - source8: Single 8.
    /// - Returns: A single of the tuple of elements.
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
    ) -> Single<(E1, E2, E3, E4, E5, E6, E7, E8)> {
        Single(
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

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds when every single of `collection` has succeeded, with `resultSelector` applied to
    /// their elements, in the collection's order.
    ///
    /// The singles are subscribed at once, in order, on the subscribing thread. `resultSelector`
    /// runs on the thread of the single that succeeds last. The first failure, or an error thrown
    /// by `resultSelector`, fails the result at once and disposes the other singles.
    /// For an empty collection, as in RxSwift, the result succeeds at once with
    /// `resultSelector([])`, called on the subscribing thread.
    ///
    /// - Parameters:
    ///   - collection: The singles, all of the same element type.
    ///   - resultSelector: Combines the elements.
    /// - Returns: A single of the combined elements.
    public static func zip<Sources: Collection, Result: Sendable>(
        _ collection: Sources,
        resultSelector: @escaping @Sendable ([Element]) throws -> Result
    ) -> Single<Result> where Sources.Element == Single<Element> {
        if collection.isEmpty {
            return Single(raw: Observable.deferred { .just(try resultSelector([])) })
        }
        return Single(raw: Observable.zip(collection.map(\.source), resultSelector: resultSelector))
    }

    /// Succeeds when every single of `collection` has succeeded, with an array of their
    /// elements, in the collection's order.
    ///
    /// Threads and errors work as in `zip(_:resultSelector:)`. For an empty collection, as in
    /// RxSwift, the result succeeds at once with an empty array.
    ///
    /// - Parameter collection: The singles.
    /// - Returns: A single of the array of elements.
    public static func zip<Sources: Collection>(_ collection: Sources) -> Single<[Element]>
    where Sources.Element == Single<Element> {
        if collection.isEmpty {
            return Single(raw: Observable.just([]))
        }
        return Single(raw: Observable.zip(collection.map(\.source)))
    }
}

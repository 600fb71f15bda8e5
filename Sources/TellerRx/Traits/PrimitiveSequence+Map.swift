extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Transforms the element of this single with `transform`.
    ///
    /// `transform` runs on the thread that delivers the element. If it throws, the result
    /// fails with that error.
    ///
    /// - Parameter transform: Applied to the element.
    /// - Returns: A single of the transformed element.
    public func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result
    ) -> Single<Result> {
        Single(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element with `transform` and drops a `nil` result, which leaves an
    /// empty ``Maybe``.
    ///
    /// `transform` runs on the thread that delivers the element. If it throws, the result
    /// fails with that error.
    ///
    /// - Parameter transform: Applied to the element; `nil` means "no element".
    /// - Returns: A maybe of the non-`nil` result.
    public func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result?
    ) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Keeps the element only if it satisfies `predicate`, which leaves a ``Maybe``.
    ///
    /// `predicate` runs on the thread that delivers the element. If it throws, the result
    /// fails with that error.
    ///
    /// - Parameter predicate: Returns `true` to keep the element.
    /// - Returns: A maybe of the element if it passed.
    public func filter(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Transforms the element of this maybe, if any, with `transform`.
    ///
    /// `transform` runs on the thread that delivers the element. If it throws, the result
    /// fails with that error.
    ///
    /// - Parameter transform: Applied to the element.
    /// - Returns: A maybe of the transformed element.
    public func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result
    ) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, if any, with `transform` and drops a `nil` result.
    ///
    /// `transform` runs on the thread that delivers the element. If it throws, the result
    /// fails with that error.
    ///
    /// - Parameter transform: Applied to the element; `nil` means "no element".
    /// - Returns: A maybe of the non-`nil` result.
    public func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result?
    ) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Keeps the element, if any, only if it satisfies `predicate`.
    ///
    /// `predicate` runs on the thread that delivers the element. If it throws, the result
    /// fails with that error.
    ///
    /// - Parameter predicate: Returns `true` to keep the element.
    /// - Returns: A maybe of the element if it passed.
    public func filter(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }
}

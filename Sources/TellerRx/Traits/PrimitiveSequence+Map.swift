// `map`, `compactMap` and `filter` for singles and maybes, written once for both traits.

extension PrimitiveSequenceType where Trait: SingleOrMaybeTrait {
    /// Transforms the element of this single, or of this maybe if it has one, with `transform`.
    ///
    /// `transform` runs on the thread that delivers the element. If it throws, the result
    /// fails with that error. An empty maybe stays empty.
    ///
    /// - Parameter transform: Applied to the element.
    /// - Returns: A single of the transformed element for a single, a maybe for a maybe.
    public func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result
    ) -> PrimitiveSequence<Trait, Result> {
        PrimitiveSequence(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, if any, with `transform` and drops a `nil` result, which leaves an
    /// empty ``Maybe``: the result is a maybe for a single too.
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

    /// Keeps the element, if any, only if it satisfies `predicate`, which leaves a ``Maybe``: the
    /// result is a maybe for a single too.
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

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds with `default` if this maybe completes without an element.
    ///
    /// An element or an error passes through on the maybe's thread; an empty completion is
    /// replaced by `default`, delivered on the thread that completed. Because there is always
    /// an element or an error, the result is a ``Single``.
    ///
    /// ```swift
    /// cachedUser().ifEmpty(default: .guest).subscribe(onSuccess: { show($0) })
    /// ```
    ///
    /// - Parameter default: The element to succeed with if the maybe has none.
    /// - Returns: A single of the maybe's element, or of `default`.
    public func ifEmpty(default: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(default: `default`))
    }

    /// Continues with `other` if this maybe completes without an element.
    ///
    /// An element or an error passes through on the maybe's thread; after an empty completion
    /// `other` is subscribed on the thread that completed, and the result takes its outcome.
    ///
    /// - Parameter other: The maybe to fall back on.
    /// - Returns: A maybe of this maybe's element, or with `other`'s outcome.
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }

    /// Continues with `other` if this maybe completes without an element.
    ///
    /// An element or an error passes through on the maybe's thread; after an empty completion
    /// `other` is subscribed on the thread that completed, and the result takes its outcome.
    /// Because there is then always an element or an error, the result is a ``Single``.
    ///
    /// ```swift
    /// cachedUser().ifEmpty(switchTo: fetchUser()).subscribe(onSuccess: { show($0) })
    /// ```
    ///
    /// - Parameter other: The single to fall back on.
    /// - Returns: A single of this maybe's element, or with `other`'s outcome.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }
}

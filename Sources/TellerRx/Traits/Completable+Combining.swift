// Running several completables, one after another (`concat`) or all at once (`zip`, and its
// older name `merge`): thin wrappers over the observable `concat` and `merge`.

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Runs `second` after this completable completes.
    ///
    /// `second` is subscribed on the thread where this completable completes. If this
    /// completable fails, `second` is never subscribed and the result fails with the error.
    ///
    /// - Parameter second: The completable to run next.
    /// - Returns: A completable that succeeds when both have succeeded, in order.
    public func concat(_ second: Completable) -> Completable {
        Completable.concat(primitiveSequence, second)
    }

    /// Runs the completables of `sequence` one after another, each once the previous one has
    /// completed.
    ///
    /// Each completable is subscribed on the thread where the previous one completed (the first
    /// on the subscribing thread); the sequence is iterated lazily, as each one is needed. The
    /// first failure fails the result, and the completables after it are never subscribed.
    ///
    /// - Parameter sequence: The completables to run, in order.
    /// - Returns: A completable that succeeds when every one has succeeded (at once for none).
    public static func concat<Sources: Sequence & Sendable>(_ sequence: Sources) -> Completable
    where Sources.Element == Completable {
        Completable(raw: Observable.concat(CompletableSources(base: sequence)))
    }

    /// Runs the completables of `collection` one after another, each once the previous one has
    /// completed.
    ///
    /// Threads and errors work as in the sequence-taking `concat(_:)`.
    ///
    /// - Parameter collection: The completables to run, in order.
    /// - Returns: A completable that succeeds when every one has succeeded (at once for none).
    public static func concat<Sources: Collection & Sendable>(_ collection: Sources) -> Completable
    where Sources.Element == Completable {
        Completable(raw: Observable.concat(collection.map(\.source)))
    }

    /// Runs `sources` one after another, each once the previous one has completed.
    ///
    /// Threads and errors work as in the sequence-taking `concat(_:)`.
    ///
    /// - Parameter sources: The completables to run, in order.
    /// - Returns: A completable that succeeds when every one has succeeded (at once for none).
    public static func concat(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.concat(sources.map(\.source)))
    }

    /// Runs every completable of `sources` at once, and succeeds when all have succeeded.
    ///
    /// All are subscribed on the subscribing thread, in order. The result completes on the
    /// thread of the last one to complete; the first failure fails it at once and disposes the
    /// others. (For completables RxSwift names this `zip`; it is the observable `merge`.)
    ///
    /// ```swift
    /// Completable.zip(photos.map(upload))
    ///     .subscribe(onCompleted: { print("all uploaded") })
    /// ```
    ///
    /// - Parameter sources: The completables to run together.
    /// - Returns: A completable that succeeds when every one has succeeded (at once for none).
    public static func zip<Sources: Collection>(_ sources: Sources) -> Completable
    where Sources.Element == Completable {
        Completable(raw: Observable.merge(sources.map(\.source)))
    }

    /// Runs every completable of `sources` at once, and succeeds when all have succeeded.
    ///
    /// Threads and errors work as in the collection-taking `zip(_:)`.
    ///
    /// - Parameter sources: The completables to run together.
    /// - Returns: A completable that succeeds when every one has succeeded (at once for none).
    public static func zip(_ sources: [Completable]) -> Completable {
        Completable(raw: Observable.merge(sources.map(\.source)))
    }

    /// Runs `sources` at once, and succeeds when all have succeeded.
    ///
    /// Threads and errors work as in the collection-taking `zip(_:)`.
    ///
    /// - Parameter sources: The completables to run together.
    /// - Returns: A completable that succeeds when every one has succeeded (at once for none).
    public static func zip(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.merge(sources.map(\.source)))
    }

    /// The RxSwift 5 name of the collection-taking `zip(_:)`.
    ///
    /// - Parameter sources: The completables to run together.
    /// - Returns: A completable that succeeds when every one has succeeded (at once for none).
    @available(*, deprecated, renamed: "zip(_:)")
    public static func merge<Sources: Collection>(_ sources: Sources) -> Completable
    where Sources.Element == Completable {
        zip(sources)
    }

    /// The RxSwift 5 name of the array-taking `zip(_:)`.
    ///
    /// - Parameter sources: The completables to run together.
    /// - Returns: A completable that succeeds when every one has succeeded (at once for none).
    @available(*, deprecated, renamed: "zip(_:)")
    public static func merge(_ sources: [Completable]) -> Completable {
        zip(sources)
    }

    /// The RxSwift 5 name of the variadic `zip(_:)`.
    ///
    /// - Parameter sources: The completables to run together.
    /// - Returns: A completable that succeeds when every one has succeeded (at once for none).
    @available(*, deprecated, renamed: "zip(_:)")
    public static func merge(_ sources: Completable...) -> Completable {
        zip(sources)
    }
}

/// The observables behind a sequence of completables, read lazily (the standard library's lazy
/// `map` is not `Sendable`, and `concat` must not iterate a long sequence up front).
private struct CompletableSources<Base: Sequence & Sendable>: Sequence, Sendable where Base.Element == Completable {
    let base: Base

    struct Iterator: IteratorProtocol {
        var base: Base.Iterator

        mutating func next() -> Observable<Never>? {
            base.next()?.source
        }
    }

    func makeIterator() -> Iterator {
        Iterator(base: base.makeIterator())
    }
}

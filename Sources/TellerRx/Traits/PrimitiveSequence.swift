/// An observable sequence with a stricter grammar, fixed by `Trait`: ``Single`` (exactly one
/// element or an error), ``Maybe`` (at most one element, or an error) and ``Completable``
/// (no element; completion or an error).
///
/// A trait is a thin, `Sendable` wrapper around an ``Observable``: it is cold when its source is,
/// and subscribing starts the work exactly as it does for the observable. Use
/// ``asObservable()`` to reach every ``ObservableType`` operator.
public struct PrimitiveSequence<Trait, Element: Sendable>: Sendable {
    /// The observable carrying the trait's events: `next` then `completed` for a success,
    /// `completed` alone for an empty `Maybe` or a `Completable`, or `error`.
    @usableFromInline
    let source: Observable<Element>

    /// Wraps `raw`, which must already respect the trait's grammar. Internal: the public ways in
    /// are the trait factories and the `asSingle()` / `asMaybe()` / `asCompletable()` conversions.
    /// `@usableFromInline` for the inlinable factories.
    @inlinable
    init(raw: Observable<Element>) {
        source = raw
    }
}

/// A type that is a ``PrimitiveSequence``: the trait-specific operators are extensions of this
/// protocol constrained on ``Trait``.
public protocol PrimitiveSequenceType<Trait, Element> {
    /// The trait that fixes the grammar (``SingleTrait``, ``MaybeTrait`` or ``CompletableTrait``).
    associatedtype Trait

    /// The type of the element the sequence may produce.
    associatedtype Element: Sendable

    /// This sequence as a ``PrimitiveSequence``.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// This sequence itself.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> {
        self
    }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// This trait as an ``Observable``: a success becomes `next` followed by `completed`.
    ///
    /// - Returns: The observable behind this trait (no new object is created).
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension PrimitiveSequence {
    /// A trait that calls `factory` for every subscriber and subscribes to the trait it returns.
    ///
    /// `factory` runs on the subscribing thread, once per subscription, so each subscriber gets
    /// fresh work. If it throws, the subscriber receives the error. Like `create`, the closure
    /// is not required to be `@Sendable`, so it may capture non-`Sendable` state; it is only
    /// ever called from `subscribe`.
    ///
    /// - Parameter factory: Builds the trait for one subscriber.
    /// - Returns: A trait that defers the choice of its source until subscription.
    public static func deferred(
        _ factory: @escaping () throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.deferred { try factory().source })
    }
}

extension PrimitiveSequence {
    /// A trait that creates a resource for each subscriber and a trait that uses it; the
    /// resource is disposed when that trait ends or the subscription is disposed.
    ///
    /// Both factories run on the subscribing thread, once per subscription, and, like
    /// `create`'s closure, may capture non-`Sendable` values. The resource is disposed after the
    /// inner trait's subscription, on the thread that ends it. If `resourceFactory` throws, the
    /// subscriber receives the error; if `primitiveSequenceFactory` throws, it receives the
    /// error and the resource is disposed.
    ///
    /// - Parameters:
    ///   - resourceFactory: Makes the resource.
    ///   - primitiveSequenceFactory: Makes the trait that uses the resource.
    /// - Returns: A trait that owns a resource for the lifetime of each subscription.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.using(resourceFactory) { resource in try primitiveSequenceFactory(resource).source }
        )
    }
}

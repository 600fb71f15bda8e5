/// The traits whose sequences carry an element: ``SingleTrait`` (exactly one) and ``MaybeTrait``
/// (at most one).
///
/// Operators that work alike for both traits (`zip`, `map`, `compactMap`, `filter`) are written
/// once, in extensions of ``PrimitiveSequenceType`` constrained on this protocol; `zip` and `map`
/// keep the trait of their sources: `Single.zip` of singles is a ``Single``, `Maybe.zip` of maybes
/// a ``Maybe``. The protocol has no requirements; it only selects the two traits, and no other
/// type is meant to conform to it.
public protocol SingleOrMaybeTrait {}

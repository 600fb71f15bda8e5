import Synchronization

/// TellerRx's one atomic type: a word that any thread may read and change without a lock, for
/// the state read on every event (a "disposed" flag, a drain loop's count, a delivery turn, a
/// slot's state bits, a pointer handed between threads), where a ``LockedState`` would cost a
/// lock and unlock per read. Anything bigger than a word, or changed together with other state,
/// goes into a ``LockedState``.
///
/// **The protocol**, the same at every site, so that no site picks its own memory orderings:
///
/// - ``load()`` and every read-modify-write (``exchange(_:)``,
///   ``compareExchange(expected:desired:)``, and the helpers built on them below) are
///   sequentially consistent. Whatever a thread did before it changed the word is visible to a
///   thread that then reads the change, so what is handed over with a change (a subscription
///   stored before its "set" bit, queued work, a retained pointer) needs no other
///   synchronization; and all threads agree on one order of these operations, so of two
///   threads that each change one word and then load the other's, at least one sees the
///   other's change.
/// - ``store(_:)`` releases: whatever the thread did before is visible to a thread that loads
///   the stored value, but a load of another word that follows the store may see that word as
///   it was before the store. Stores are for a word no other thread changes meanwhile (set-up
///   before the owner is shared, or a change made under the lock that guards its other
///   writers); a change that must come before such a later load is an ``exchange(_:)``.
///
/// On x86-64 the orderings add no instruction: a load and a store are plain moves, and a
/// read-modify-write is the same locked instruction whatever its ordering. They do keep the
/// compiler from moving other memory reads above a load, so code that checks a word on every
/// event may read a field again after it (`combineLatest`: one instruction per element, 0.3%,
/// against the relaxed loads it had). On arm64 a load is a load-acquire (`ldar`) and a store a
/// store-release (`stlr`).
///
/// The helpers name the common uses:
/// - a flag that, once set, stays set (`AtomicState<Bool>`): ``isSet`` and ``set()``, which
///   returns `true` only to the call that found it clear, so of any number of threads racing to
///   set it exactly one does the once-only work;
/// - a count (`AtomicState<Int>`): ``increment()`` and ``decrement()`` return the count they
///   left, so of threads racing to raise it from zero exactly one sees 1 (and owns the drain
///   loop), and the owner sees 0 on the change that ends it;
/// - a word of state bits (`AtomicState<Int>`): ``bitwiseOr(_:)`` sets bits and returns the
///   word as it was, so exactly one caller sees each bit clear.
///
/// Each site keeps a comment on what its values mean; the ordering reasoning is here.
///
/// Teller's once-only flags are this type too. A `package` type, not SPI as ``LockedState`` is:
/// TellerRx's public inlinable code (`Single.subscribe`) uses it, which an SPI type forbids;
/// `@usableFromInline` so that its inlinable members' bodies are serialized for Teller.
@usableFromInline package struct AtomicState<Value: AtomicRepresentable>: ~Copyable, Sendable
where Value: Sendable {
    @usableFromInline let storage: Atomic<Value>

    /// - Parameter initialValue: The value to start from.
    @inlinable
    package init(_ initialValue: Value) {
        storage = Atomic(initialValue)
    }
}

// `Synchronization` offers the operations per storage size, so they are declared here for the
// sizes in use: a machine word (`Int`, `Unmanaged?`) and a flag's byte (`Bool`).
extension AtomicState where Value.AtomicRepresentation == Int.AtomicRepresentation {
    /// The value now (sequentially consistent).
    @inlinable @inline(__always)
    package func load() -> Value {
        storage.load(ordering: .sequentiallyConsistent)
    }

    /// Replaces the value (releasing: see ``AtomicState`` for what that does not order).
    @inlinable @inline(__always)
    package func store(_ desired: Value) {
        storage.store(desired, ordering: .releasing)
    }

    /// Replaces the value (sequentially consistent).
    ///
    /// - Returns: The value it replaced.
    @inlinable @inline(__always)
    @discardableResult
    package func exchange(_ desired: Value) -> Value {
        storage.exchange(desired, ordering: .sequentiallyConsistent)
    }

    /// Replaces the value with `desired` if it is `expected` (sequentially consistent, whether
    /// or not it does).
    ///
    /// - Returns: Whether it replaced it, and the value it found.
    @inlinable @inline(__always)
    @discardableResult
    package func compareExchange(expected: Value, desired: Value) -> (exchanged: Bool, original: Value) {
        storage.compareExchange(expected: expected, desired: desired, ordering: .sequentiallyConsistent)
    }
}

extension AtomicState where Value == Bool {
    /// Whether the flag is set (sequentially consistent).
    @inlinable @inline(__always)
    package var isSet: Bool {
        storage.load(ordering: .sequentiallyConsistent)
    }

    /// Sets or clears the flag (releasing: see ``AtomicState`` for what that does not order),
    /// for a flag that is not once-only (a setting).
    @inlinable @inline(__always)
    package func store(_ isSet: Bool) {
        storage.store(isSet, ordering: .releasing)
    }

    /// Sets the flag.
    ///
    /// - Returns: `true` if this call set it, `false` if it was already set.
    @inlinable @inline(__always)
    @discardableResult
    package func set() -> Bool {
        !storage.exchange(true, ordering: .sequentiallyConsistent)
    }
}

extension AtomicState where Value == Int {
    /// Adds one (sequentially consistent).
    ///
    /// - Returns: The count this call left: 1 if it raised it from zero.
    @inlinable @inline(__always)
    @discardableResult
    package func increment() -> Int {
        storage.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    }

    /// Subtracts one (sequentially consistent).
    ///
    /// - Returns: The count this call left: 0 if it brought it back to zero.
    @inlinable @inline(__always)
    @discardableResult
    package func decrement() -> Int {
        storage.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
    }

    /// Sets the bits of `bits` (sequentially consistent).
    ///
    /// - Returns: The word before and after.
    @inlinable @inline(__always)
    @discardableResult
    package func bitwiseOr(_ bits: Int) -> (oldValue: Int, newValue: Int) {
        storage.bitwiseOr(bits, ordering: .sequentiallyConsistent)
    }
}

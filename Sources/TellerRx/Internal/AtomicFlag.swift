import Synchronization

/// A flag that, once set, stays set: TellerRx's one atomic type for the "disposed", "stopped",
/// "torn down" and "opened" flags that are read on every event, where a ``LockedState`` would
/// cost a lock and unlock per read.
///
/// The protocol, the same at every site: ``isSet`` reads the flag; ``set()`` sets it and
/// returns `true` only to the call that found it clear, so of any number of threads racing to
/// set it exactly one wins and does the once-only work (sends the terminal event, tears down,
/// runs the dispose action). Every operation is sequentially consistent: whatever a thread did
/// before `set()` is visible to a thread that then reads `isSet` as `true`, and of two threads
/// that each set one flag and then read the other's, at least one sees the other's set. On
/// x86-64 and arm64 that costs the same instructions as the weaker orderings would for these
/// operations (a plain load, an exchange).
///
/// Counters are an ``AtomicCounter``. Other state that is more than one bit (state words,
/// pointers) keeps its own `Atomic` next to a comment on its protocol, or goes into a
/// ``LockedState``.
///
/// Teller's once-only flags are this type too: SPI with `package` members and inlined, as
/// ``LockedState`` (see there why).
@_spi(TellerInternals) public struct AtomicFlag: ~Copyable, Sendable {
    @usableFromInline let storage: Atomic<Bool>

    /// - Parameter isSet: Whether the flag starts out set.
    @inlinable
    package init(isSet: Bool = false) {
        storage = Atomic(isSet)
    }

    /// Whether the flag has been set.
    @inlinable @inline(__always)
    package var isSet: Bool {
        storage.load(ordering: .sequentiallyConsistent)
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

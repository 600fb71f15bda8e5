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
struct AtomicFlag: ~Copyable, Sendable {
    private let storage: Atomic<Bool>

    /// - Parameter isSet: Whether the flag starts out set.
    init(isSet: Bool = false) {
        storage = Atomic(isSet)
    }

    /// Whether the flag has been set.
    @inline(__always)
    var isSet: Bool {
        storage.load(ordering: .sequentiallyConsistent)
    }

    /// Sets the flag.
    ///
    /// - Returns: `true` if this call set it, `false` if it was already set.
    @inline(__always)
    @discardableResult
    func set() -> Bool {
        !storage.exchange(true, ordering: .sequentiallyConsistent)
    }
}

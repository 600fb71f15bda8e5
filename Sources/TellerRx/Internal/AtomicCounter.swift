import Synchronization

/// A count that any thread may raise and lower: TellerRx's one atomic type for counters (a
/// drain loop's pending work, a sink's undelivered events, live resources), where a
/// ``LockedState`` would cost a lock and unlock per change.
///
/// The protocol, the same at every site: ``increment()`` and ``decrement()`` change the count by
/// one and return the value they left, so of any number of threads racing to raise it from zero
/// exactly one sees 1 (and owns the drain loop, or the delivery turn), and the owner sees 0 on
/// the change that ends it. Every change is acquiring and releasing: whatever a thread did
/// before its change is visible to the thread whose later change it precedes, so work handed
/// over with the count (queued events, an iterator) needs no further synchronization.
/// ``value`` is an acquiring load. On x86-64 and arm64 the changes cost the same instruction as
/// a relaxed one would (a locked add, an `ldaddal`).
struct AtomicCounter: ~Copyable, Sendable {
    private let storage: Atomic<Int>

    /// - Parameter value: The count to start from.
    init(_ value: Int = 0) {
        storage = Atomic(value)
    }

    /// The count now.
    @inline(__always)
    var value: Int {
        storage.load(ordering: .acquiring)
    }

    /// Adds one.
    ///
    /// - Returns: The count this call left: 1 if it raised it from zero.
    @inline(__always)
    @discardableResult
    func increment() -> Int {
        storage.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    }

    /// Subtracts one.
    ///
    /// - Returns: The count this call left: 0 if it brought it back to zero.
    @inline(__always)
    @discardableResult
    func decrement() -> Int {
        storage.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue
    }
}

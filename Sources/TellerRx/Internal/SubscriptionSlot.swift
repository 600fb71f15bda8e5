import Synchronization

/// Holds one subscription that arrives once, when `subscribe` returns, and may be disposed
/// before or after that: whichever of ``setSubscription(_:)`` and ``dispose()`` comes second
/// disposes the subscription. Lock-free (the same two-bit protocol as ``SinkDisposer``).
///
/// Multi-source operators subclass it so that the observer handed to one source is also the
/// handle that ends that source's subscription: one allocation per source instead of an
/// observer plus a `SingleAssignmentDisposable` with its own lock.
class SubscriptionSlot: Disposable, @unchecked Sendable {
    // @unchecked: `subscription` is written once before the `setBit` release and read (then
    // cleared) only by the one caller that observes both bits.
    private static let setBit = 1
    private static let disposedBit = 2

    private let state = Atomic<Int>(0)
    // Unchecked: the two-bit protocol already makes every access exclusive.
    @exclusivity(unchecked) private var subscription: (any Disposable)?

    init() {}

    /// Whether ``dispose()`` has been called.
    final var isDisposed: Bool {
        state.load(ordering: .acquiring) & SubscriptionSlot.disposedBit != 0
    }

    /// Stores `subscription`, or disposes it at once if this slot is already disposed.
    final func setSubscription(_ subscription: any Disposable) {
        self.subscription = subscription
        let previous = state.bitwiseOr(SubscriptionSlot.setBit, ordering: .acquiringAndReleasing).oldValue
        assert(previous & SubscriptionSlot.setBit == 0, "SubscriptionSlot.setSubscription called twice")
        if previous & SubscriptionSlot.disposedBit != 0 {
            takeSubscription()?.dispose()
        }
    }

    /// Disposes the subscription now, or as soon as it is set. Only the first call acts.
    final func dispose() {
        let previous = state.bitwiseOr(SubscriptionSlot.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & SubscriptionSlot.disposedBit == 0 else { return }
        if previous & SubscriptionSlot.setBit != 0 {
            takeSubscription()?.dispose()
        }
    }

    /// Back to "nothing set, not disposed", for reusing a finished slot. Only while nothing
    /// else references this slot, and after it was disposed (so it holds no subscription).
    final func resetSubscription() {
        assert(subscription == nil, "resetSubscription on a slot that still holds a subscription")
        state.store(0, ordering: .relaxed)
    }

    private func takeSubscription() -> (any Disposable)? {
        let subscription = self.subscription
        self.subscription = nil
        return subscription
    }
}

/// Disposes a fixed list of slots, in order: the subscription half that multi-source
/// producers hand to ``SinkDisposer``. A struct (stored inline in the existential, so no
/// allocation) without a "disposed" flag: ``SinkDisposer`` disposes it exactly once, and
/// disposing a slot twice does nothing anyway.
struct SlotsDisposable: Disposable {
    private let slots: [SubscriptionSlot]

    init(_ slots: [SubscriptionSlot]) {
        self.slots = slots
    }

    func dispose() {
        for slot in slots {
            slot.dispose()
        }
    }
}

/// Stands for "disposed" in ``SerialSlot``.
private let serialSlotDisposedMarker = SubscriptionSlot()

/// Holds the current one of a series of subscription slots (`switchLatest`'s latest inner
/// sequence, `concat`'s current source): replacing it disposes the previous one, and once
/// disposed it disposes whatever is offered. Lock-free, so disposal from another thread never
/// waits for an operator's delivery lock.
final class SerialSlot: Disposable, @unchecked Sendable {
    // @unchecked: all state is in the atomic cell.
    /// The current slot (retained), or the marker once disposed.
    private let current = Atomic<Unmanaged<SubscriptionSlot>?>(nil)

    init() {}

    deinit {
        if let held = current.load(ordering: .acquiring), !SerialSlot.isMarker(held) {
            held.release()
        }
    }

    private static var marker: Unmanaged<SubscriptionSlot> {
        Unmanaged.passUnretained(serialSlotDisposedMarker)
    }

    private static func isMarker(_ value: Unmanaged<SubscriptionSlot>) -> Bool {
        value.toOpaque() == marker.toOpaque()
    }

    /// Makes `slot` the current one and disposes the previous one. Returns `false`, having
    /// disposed `slot`, if this is already disposed.
    @discardableResult
    func replace(with slot: SubscriptionSlot) -> Bool {
        let new = Unmanaged.passRetained(slot)
        var expected = current.load(ordering: .acquiring)
        while true {
            if let expected, SerialSlot.isMarker(expected) {
                new.release()
                slot.dispose()
                return false
            }
            let (exchanged, original) = current.compareExchange(
                expected: expected,
                desired: new,
                ordering: .acquiringAndReleasing
            )
            if exchanged {
                expected?.takeRetainedValue().dispose()
                return true
            }
            expected = original
        }
    }

    /// Disposes the current slot, leaving none (unless this is disposed already).
    func disposeCurrent() {
        var expected = current.load(ordering: .acquiring)
        while let present = expected, !SerialSlot.isMarker(present) {
            let (exchanged, original) = current.compareExchange(
                expected: present,
                desired: nil,
                ordering: .acquiringAndReleasing
            )
            if exchanged {
                present.takeRetainedValue().dispose()
                return
            }
            expected = original
        }
    }

    /// Disposes the current slot and every later one. Only the first call acts.
    func dispose() {
        if let previous = current.exchange(SerialSlot.marker, ordering: .acquiringAndReleasing),
            !SerialSlot.isMarker(previous)
        {
            previous.takeRetainedValue().dispose()
        }
    }
}

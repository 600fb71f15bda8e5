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

    private func takeSubscription() -> (any Disposable)? {
        let subscription = self.subscription
        self.subscription = nil
        return subscription
    }
}

/// Disposes a fixed list of slots once, in order: the subscription half that multi-source
/// producers hand to ``SinkDisposer`` (no dictionary, unlike `CompositeDisposable`).
final class SlotsDisposable: Disposable, @unchecked Sendable {
    // @unchecked: `slots` is immutable; `disposed` is atomic.
    private let slots: [SubscriptionSlot]
    private let disposed = Atomic<Bool>(false)

    init(_ slots: [SubscriptionSlot]) {
        self.slots = slots
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for slot in slots {
            slot.dispose()
        }
    }
}

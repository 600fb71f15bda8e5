// State bits. File-level constants rather than static members, so generic subclasses never
// reach them through type metadata.
private let subscriptionSetBit = 1
private let disposedBit = 2
private let stoppedBit = 4
private let topLevelBit = 8
/// Set on a sink handed to a top-level slot: its first disposal ends that slot too.
private let heldByTopLevelBit = 16
/// Set by ``SubscriptionSlot/claimAssignment()``.
private let assignmentClaimedBit = 32

/// Holds one subscription that arrives once and may be disposed before or after it arrives:
/// whichever of ``setSubscription(_:)`` and ``dispose()`` comes second disposes it. This is
/// TellerRx's one lock-free "subscription set / disposed" protocol: every ``Sink`` is a slot
/// for its upstream subscription, and multi-source operators subclass it so that the observer
/// handed to one source is also the handle that ends that source's subscription. The public
/// ``SingleAssignmentDisposable`` is one of these too.
///
/// A third bit, "stopped", marks a slot that decided its terminal event but has not torn down
/// yet (see ``LockedSink``); ``isDisposed`` reports both.
class SubscriptionSlot: Disposable, @unchecked Sendable {
    // @unchecked: `subscription` is written once before the `subscriptionSetBit` release and
    // read (then cleared) only by the one caller that observes both bits.

    // Before any field of a generic subclass: fields after a generic-size field sit at
    // offsets read from the type metadata at run time.
    private let state = AtomicState(0)
    /// Unchecked exclusivity: the state bits already make every access exclusive, and the
    /// dynamic check costs more than the rest of setting and disposing it.
    @exclusivity(unchecked) private var subscription: (any Disposable)?

    init() {}

    /// Makes this new slot the one for the outermost subscription of a chain, which
    /// ``Producer`` returns: the sink handed to it ends it too when the sink ends itself (see
    /// ``Sink/wire(to:)``). Only before anything else uses the slot.
    final func markTopLevel() {
        state.store(topLevelBit)
    }

    /// Whether this is the slot of a chain's outermost subscription.
    final var isTopLevel: Bool {
        state.load() & topLevelBit != 0
    }

    /// Whether this slot was disposed, or stopped before its teardown: either way, whatever it
    /// observes is to be ignored.
    @inline(__always)
    final var isDisposed: Bool {
        state.load() & (disposedBit | stoppedBit) != 0
    }

    /// Whether ``dispose()`` was called: the subscriber let go, so nothing more is sent, not
    /// even what was decided before the slot stopped.
    @inline(__always)
    final var isDisposedFromOutside: Bool {
        state.load() & disposedBit != 0
    }

    /// Whether ``markStopped()`` was called (whether or not it was also disposed).
    @inline(__always)
    final var isMarkedStopped: Bool {
        state.load() & stoppedBit != 0
    }

    /// Stores `subscription`, or disposes it at once if this slot is already disposed.
    /// Call once (again only after ``resetSubscription()``).
    final func setSubscription(_ subscription: consuming any Disposable) {
        self.subscription = subscription
        let previous = state.bitwiseOr(subscriptionSetBit).oldValue
        assert(previous & subscriptionSetBit == 0, "setSubscription called twice")
        if previous & disposedBit != 0 {
            disposeSubscription()
        }
    }

    /// Claims the one ``setSubscription(_:)`` call, for a slot set by code that may wrongly set
    /// it twice (``SingleAssignmentDisposable``); operators, which set it once, skip this.
    ///
    /// - Returns: `false` if it was claimed already: the caller then must not set it.
    final func claimAssignment() -> Bool {
        state.bitwiseOr(assignmentClaimedBit).oldValue & assignmentClaimedBit == 0
    }

    /// Out of line: the common path of ``setSubscription(_:)`` (not yet disposed) then needs no
    /// stack space for a taken-out existential, and is run once per operator per subscription.
    @inline(never)
    private func disposeSubscription() {
        subscription.take()?.dispose()
    }

    /// Makes this slot `downstream`'s subscription (nothing when `nil`).
    ///
    /// Here, not in the generic ``Sink``, on purpose: erasing `self` to `any Disposable` stores
    /// its static type's metadata in the existential, and for `Sink<Observer>` that metadata
    /// is a run-time lookup (about 500 instructions) on every subscription; for this
    /// non-generic class it is a constant.
    ///
    /// - Returns: Whether `downstream` is a top-level slot (see ``markTopLevel()``): this slot
    ///   then calls ``endTopLevelSubscription()`` when it is first disposed.
    @discardableResult
    final func handOver(to downstream: borrowing SubscriptionSlot?) -> Bool {
        switch downstream {
        case .some(let slot):
            slot.setSubscription(self)
            guard slot.isTopLevel else { return false }
            state.bitwiseOr(heldByTopLevelBit)
            return true
        case .none:
            return false
        }
    }

    /// Ends the top-level slot this slot was handed to; ``Sink`` overrides it. Called once, on
    /// the first disposal, only for a slot that ``handOver(to:)`` found was handed to one.
    @inline(never)
    func endTopLevelSubscription() {}

    /// Disposes the subscription now, or as soon as it is set; safe from any thread. Only the
    /// first call disposes it. Subclasses that override this call `super`.
    func dispose() {
        let previous = state.bitwiseOr(disposedBit).oldValue
        if previous & (disposedBit | subscriptionSetBit) == subscriptionSetBit {
            disposeSubscription()
        }
        if previous & (disposedBit | heldByTopLevelBit) == heldByTopLevelBit {
            endTopLevelSubscription()
        }
    }

    /// Marks the slot stopped without disposing anything: it then reports ``isDisposed``.
    ///
    /// - Returns: Whether it was stopped already, and whether it was disposed.
    final func markStopped() -> (wasStopped: Bool, wasDisposed: Bool) {
        let previous = state.bitwiseOr(stoppedBit).oldValue
        return (previous & stoppedBit != 0, previous & disposedBit != 0)
    }

    /// Back to "nothing set, not disposed", for reusing a finished slot. Only while nothing
    /// else references this slot, and after it was disposed (so it holds no subscription).
    final func resetSubscription() {
        assert(subscription == nil, "resetSubscription on a slot that still holds a subscription")
        state.store(0)
    }
}

/// Disposes a fixed list of slots, in order: the upstream subscription of a multi-source sink.
/// A struct (stored inline in the existential, so no allocation) without a "disposed" flag:
/// the sink disposes it exactly once, and disposing a slot twice does nothing anyway.
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

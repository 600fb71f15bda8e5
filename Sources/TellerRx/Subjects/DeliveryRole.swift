/// Which thread, if any, is delivering a subject's events (see ``SubjectCore``).
///
/// Claiming the role, and queueing behind the thread that holds it, happen under the
/// subject's lock. Giving the role up does not need the lock when nothing was queued
/// meanwhile: the holder swaps "delivering" for "idle" atomically, and a thread that queues
/// an event first swaps "delivering" for "delivering, with a queue", so exactly one of the two
/// succeeds. That saves the holder a second lock acquisition per event on the uncontended path.
///
/// An atomic, so it lives beside the locked state rather than in it (the locked state is
/// copyable; an atomic is not).
struct DeliveryRole: ~Copyable {
    private static let idle = 0
    private static let delivering = 1
    private static let deliveringWithQueue = 2

    private let state = AtomicState(DeliveryRole.idle)

    /// Under the lock: whether a thread holds the role.
    var isHeld: Bool {
        state.load() != Self.idle
    }

    /// Under the lock: claims the role for the calling thread and returns `true`, or, if
    /// another thread holds it, makes sure that thread will look at the queue before it gives
    /// the role up and returns `false` (the caller then queues its event, still under the
    /// lock).
    func claimOrQueue() -> Bool {
        switch state.load() {
        case Self.idle:
            state.store(Self.delivering)
            return true
        case Self.delivering:
            // The holder may be giving the role up at this moment, without the lock: exactly
            // one of the two exchanges succeeds.
            let (queued, _) = state.compareExchange(
                expected: Self.delivering,
                desired: Self.deliveringWithQueue
            )
            if queued { return false }
            state.store(Self.delivering)  // it was given up: take it
            return true
        default:
            return false
        }
    }

    /// Under the lock, by the holder (or after ``claimOrQueue()`` returned `false`): something
    /// was queued, so the holder must look at the queue before giving the role up.
    func markQueued() {
        state.store(Self.deliveringWithQueue)
    }

    /// Without the lock, by the holder once it has delivered: gives the role up unless
    /// something was queued meanwhile. If it returns `false`, the caller must drain the queue
    /// under the lock (``SubjectCoreState/nextPending(_:)``), which gives the role up once it
    /// is empty.
    func releaseUnlessQueued() -> Bool {
        state.compareExchange(
            expected: Self.delivering,
            desired: Self.idle
        ).exchanged
    }

    /// Under the lock, by the holder, once the queue is empty: gives the role up.
    func release() {
        state.store(Self.idle)
    }
}

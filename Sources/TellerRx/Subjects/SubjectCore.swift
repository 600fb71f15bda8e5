/// What every subject shares: one lock, and under it the subscriber list, the stopped and
/// disposed flags, and the delivery queue; beside it, the delivery role. A subject keeps its
/// own state (latest value, replay buffer, terminal event) in fields that it touches only
/// inside ``withLock(_:)``.
///
/// **Serialized delivery.** At most one thread delivers a subject's events at a time: the
/// thread that finds no delivery in progress claims the ``DeliveryRole``, delivers outside the
/// lock, then delivers whatever other threads (or re-entrant calls from subscribers) queued
/// meanwhile; on the uncontended path it gives the role up without locking again.
/// An event is paired with the subscriber list of the moment the subject accepts it, so a
/// subscriber sees exactly the events accepted after it joined, once each, in the order they
/// were accepted, never two at once.
///
/// **Why non-generic.** Subjects are usually used from another module, where their code runs
/// unspecialized; there, every generic array, optional or tuple costs a runtime metadata
/// look-up or an out-of-line call. Keeping this state non-generic (a `LockedState` of a
/// concrete type, mutex and state in one allocation) keeps the per-event path to plain
/// specialized code.
///
/// Noncopyable, like the atomic role in it: each subject owns exactly one.
struct SubjectCore: ~Copyable {
    /// The state's storage: non-generic, so that freeing a subject runs specialized code.
    private final class Storage: LockedStateStorage<SubjectCoreState> {}

    private let state = LockedState(storage: Storage.self, SubjectCoreState())
    /// Who is delivering; pass it to the ``SubjectCoreState`` methods that claim or queue.
    let role = DeliveryRole()

    /// Runs `body` with the state, under the lock. Never call observers or user code in it.
    @inline(__always)
    func withLock<Result>(_ body: (inout SubjectCoreState) throws -> Result) rethrows -> Result {
        try state.withLock(body)
    }

    /// Whether anyone is subscribed.
    var hasObservers: Bool {
        withLock { !$0.subscribers.isEmpty }
    }

    /// Whether the subject was disposed.
    var isDisposed: Bool {
        withLock { $0.isDisposed }
    }

    /// Makes a subscriber for `observer` (not added yet).
    @inline(__always)
    func subscriber<Observer: ObserverType>(for observer: Observer) -> ObserverSubjectSubscriber<Observer> {
        ObserverSubjectSubscriber(observer: observer)
    }

    /// The subscription to return for `subscriber`, which this thread added (it has its id).
    @inline(__always)
    func subscription(for subscriber: SubjectSubscriberBase) -> SubjectSubscription {
        SubjectSubscription(owner: state, id: subscriber.id)
    }

    /// Drops every subscriber: called when the subject is deallocated. Their observers are
    /// freed after unlocking.
    func removeAll() {
        let removed = withLock { $0.removeAll() }
        withExtendedLifetime(removed) {}
    }

    /// Disposes the subject: runs `body` (the subject clears its own state) and
    /// ``SubjectCoreState/dispose()`` under the lock; what it drops is freed after unlocking.
    func dispose(_ body: () -> Void) {
        let dropped = withLock { state -> SubjectCoreState.Dropped in
            body()
            return state.dispose()
        }
        withExtendedLifetime(dropped) {}
    }

    /// Ends the subject with `event`, a boxed terminal event, unless it already ended or was
    /// disposed: the current subscribers get it (now, or queued behind a delivery in progress)
    /// and later subscribers get it at once. `body` runs under the lock first, if the subject
    /// still accepts events.
    func end(with event: EventBox, recordingThread: Bool = false, _ body: () -> Void = {}) {
        var subscribers = SubjectSubscribers()
        let deliverNow = withLock { state -> Bool in
            guard state.isAccepting else { return false }
            body()
            subscribers = state.stop(with: event)
            return state.accept(role, for: subscribers, recordingThread: recordingThread) { event }
        }
        if deliverNow {
            event.deliver(to: subscribers)
            finishDelivery()
            releaseEnding()
        }
    }

    /// Lets go of the subscribers the terminal event went to, after unlocking.
    @inline(never)
    private func releaseEnding() {
        let ended = withLock { $0.takeEnding() }
        withExtendedLifetime(ended) {}
    }

    /// Called without the lock by the thread that claimed delivery, once it has delivered its
    /// own events: delivers what was queued meanwhile, then gives up the delivery role.
    @inline(__always)
    func finishDelivery() {
        if role.releaseUnlessQueued() { return }
        drainPending()
    }

    /// Called without the lock after ``SubjectCoreState/turnForNewSubscriber(_:)``: runs
    /// `deliverFirstEvents` now unless the first events were queued, then, if this thread
    /// claimed delivery for them, delivers what was queued meanwhile.
    @inline(__always)
    func finishJoining(_ turn: NewSubscriberTurn, deliverFirstEvents: () -> Void) {
        switch turn {
        case .deliverThenFinish:
            deliverFirstEvents()
            finishDelivery()
        case .deliverNested:
            deliverFirstEvents()
        case .enqueue:
            break
        }
    }

    /// The contended path: deliver queued events one at a time, re-checking the queue under
    /// the lock each time (the subject may be disposed in between, which empties it).
    @inline(never)
    private func drainPending() {
        var deliveredTerminal = false
        while let delivery = withLock({ $0.nextPending(role) }) {
            delivery.event.deliver(to: delivery.subscribers)
            deliveredTerminal = deliveredTerminal || delivery.isTerminal
        }
        if deliveredTerminal { releaseEnding() }
    }
}

extension LockedState where State == SubjectCoreState {
    /// Removes the subscriber with `id` (its subscription was disposed). The subscriber, and
    /// its observer, are freed after unlocking, or later by a delivery that still holds it.
    func remove(_ id: UInt64) {
        let removed = withLock { $0.remove(id) }
        withExtendedLifetime(removed) {}
    }
}

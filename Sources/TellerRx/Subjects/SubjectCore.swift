#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// What every subject shares: one lock, and under it the subscriber list, the stopped and
/// disposed flags, and the delivery queue. A subject keeps its own state (latest value, replay
/// buffer, terminal event) in fields that it touches only inside ``withLock(_:)``.
///
/// **Serialized delivery.** At most one thread delivers a subject's events at a time: the
/// thread that finds no delivery in progress claims the role, delivers outside the lock, then
/// delivers whatever other threads (or re-entrant calls from subscribers) queued meanwhile.
/// An event is paired with the subscriber list of the moment the subject accepts it, so a
/// subscriber sees exactly the events accepted after it joined, once each, in the order they
/// were accepted, never two at once.
///
/// **Why non-generic.** Subjects are usually used from another module, where their code runs
/// unspecialized; there, every generic array, optional or tuple costs a runtime metadata
/// look-up or an out-of-line call. Keeping this state non-generic (a `LockedState` of a
/// concrete type, mutex and state in one allocation) keeps the per-event path to plain
/// specialized code.
struct SubjectCore {
    /// The state's storage: non-generic, so that freeing a subject runs specialized code.
    private final class Storage: LockedStateStorage<SubjectCoreState> {}

    private let state = LockedState(storage: Storage.self, SubjectCoreState())

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

    /// Makes a subscriber for `observer`, with its subscription (not added yet).
    @inline(__always)
    func subscriber<Observer: ObserverType>(for observer: Observer) -> ObserverSubjectSubscriber<Observer> {
        ObserverSubjectSubscriber(observer: observer, subscription: SubjectSubscription(owner: self))
    }

    /// Removes the subscriber of `subscription` (it was disposed). The subscriber, and its
    /// observer, are freed after unlocking, or later by a delivery that still holds it.
    func remove(_ subscription: SubjectSubscription) {
        let removed = withLock { $0.remove(subscription) }
        withExtendedLifetime(removed) {}
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
            return state.accept(for: subscribers, recordingThread: recordingThread) { event }
        }
        if deliverNow {
            event.deliver(to: subscribers)
            finishDelivery()
        }
    }

    /// Called without the lock by the thread that claimed delivery, once it has delivered its
    /// own events: delivers what was queued meanwhile, then gives up the delivery role.
    @inline(__always)
    func finishDelivery() {
        if withLock({ $0.releaseIfIdle() }) { return }
        drainPending()
    }

    /// Called without the lock after ``SubjectCoreState/turnForNewSubscriber()``: runs
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
        while let delivery = withLock({ $0.nextPending() }) {
            delivery.event.deliver(to: delivery.subscribers)
        }
    }
}

/// The state every subject keeps under its lock. Its methods are called inside
/// ``SubjectCore/withLock(_:)``.
///
/// **Freeing subscribers.** A subscriber (and its observer) is freed when the last reference
/// to it goes: the list, a queued delivery, or the snapshot a delivering thread holds. An
/// observer's deinit is user code, so no method here lets the last reference go under the
/// lock: what they drop is returned to the caller, or moved out of the queue when delivered.
struct SubjectCoreState {
    /// What ``dispose()`` drops, for the caller to free after unlocking.
    struct Dropped {
        let subscribers: SubjectSubscribers
        let pending: FIFOQueue<PendingDelivery>
        let stopEvent: EventBox?
    }

    /// The subscribers that receive the next accepted event, in subscription order.
    private(set) var subscribers = SubjectSubscribers()
    /// The terminal event the subject accepted, if any (boxed), for late subscribers.
    private(set) var stopEvent: EventBox?
    /// Whether the subject was disposed.
    private(set) var isDisposed = false

    // The delivery queue. `deliverer` is the delivering thread, recorded only by subjects that
    // send first events to new subscribers (see `turnForNewSubscriber`); PublishSubject skips
    // it, which saves a call per event. The queue hands each delivery out (keeping no
    // reference), so it never holds the last reference to a subscriber when it empties.
    private var isDelivering = false
    private var deliverer: pthread_t?
    private var pending = FIFOQueue<PendingDelivery>()

    /// Whether the subject still accepts events.
    @inline(__always)
    var isAccepting: Bool {
        stopEvent == nil && !isDisposed
    }

    /// Whether the subject accepted a terminal event.
    var isStopped: Bool {
        stopEvent != nil
    }

    /// Adds a subscriber: it receives every event accepted from now on.
    @inline(__always)
    mutating func add(_ subscriber: SubjectSubscriberBase) {
        subscribers.append(subscriber)
    }

    /// Removes the subscriber of `subscription` if it is still listed, and returns it for the
    /// caller to let go of after unlocking. Linear, which beats hashing for the few subscribers
    /// a subject usually has.
    mutating func remove(_ subscription: SubjectSubscription) -> SubjectSubscriberBase? {
        guard let index = subscribers.firstIndex(where: { $0.subscription === subscription }) else {
            return nil  // already gone with a terminal event or dispose
        }
        return subscribers.remove(at: index)
    }

    /// Marks the subject stopped with `event` (the boxed terminal event) and returns the
    /// subscribers that must get it; the list is emptied, since nobody gets anything after it.
    mutating func stop(with event: EventBox) -> SubjectSubscribers {
        stopEvent = event
        let stopped = subscribers
        subscribers = []
        return stopped
    }

    /// Marks the subject disposed (forgetting its terminal event): every subscription is
    /// marked disposed (so a delivery in progress skips the rest of them), subscribers are
    /// dropped and queued deliveries discarded; the caller frees them after unlocking.
    mutating func dispose() -> Dropped {
        isDisposed = true
        for subscriber in subscribers {
            subscriber.subscription.markDisposed()
        }
        let dropped = Dropped(subscribers: subscribers, pending: pending, stopEvent: stopEvent)
        stopEvent = nil
        subscribers = []
        pending = FIFOQueue()
        return dropped
    }

    /// Drops every subscriber, for the subject's deinit; the caller frees them after unlocking.
    mutating func removeAll() -> SubjectSubscribers {
        let dropped = subscribers
        subscribers = []
        return dropped
    }

    /// Accepts an element for the current subscribers. Returns `true` if no delivery was in
    /// progress: the caller now holds the delivery role, delivers the element to `snapshot`
    /// (the current subscribers) once it has unlocked, then calls
    /// ``SubjectCore/finishDelivery()``. Returns `false` if another thread is delivering: the
    /// element was queued (boxed by `boxed`) for that thread, and `snapshot` is untouched.
    ///
    /// Subjects that use ``turnForNewSubscriber()`` pass `recordingThread: true`.
    @inline(__always)
    mutating func acceptNext(
        snapshot: inout SubjectSubscribers,
        recordingThread: Bool = false,
        boxed: () -> EventBox
    ) -> Bool {
        if isDelivering {
            pending.enqueue(PendingDelivery(event: boxed(), subscribers: subscribers))
            return false
        }
        isDelivering = true
        if recordingThread { deliverer = pthread_self() }
        snapshot = subscribers
        return true
    }

    /// Accepts an event for `subscribers`. Returns `true` if no delivery was in progress: the
    /// caller now holds the delivery role, delivers the event itself once it has unlocked, then
    /// calls ``SubjectCore/finishDelivery()``. Returns `false` if another thread is delivering:
    /// the event was queued (boxed by `boxed`) for that thread.
    ///
    /// Subjects that use ``turnForNewSubscriber()`` pass `recordingThread: true`.
    @inline(__always)
    mutating func accept(
        for subscribers: SubjectSubscribers,
        recordingThread: Bool = false,
        boxed: () -> EventBox
    ) -> Bool {
        if isDelivering {
            pending.enqueue(PendingDelivery(event: boxed(), subscribers: subscribers))
            return false
        }
        isDelivering = true
        if recordingThread { deliverer = pthread_self() }
        return true
    }

    /// How a subscriber that just joined gets its first events (a BehaviorSubject's value, a
    /// ReplaySubject's buffer) without overlapping or reordering with events accepted after it
    /// joined.
    mutating func turnForNewSubscriber() -> NewSubscriberTurn {
        if !isDelivering {
            isDelivering = true
            deliverer = pthread_self()
            return .deliverThenFinish
        }
        if let deliverer, pthread_equal(deliverer, pthread_self()) != 0 {
            return .deliverNested
        }
        return .enqueue
    }

    /// Queues `event` for `subscribers` behind everything queued so far (the caller either was
    /// told to `.enqueue`, or holds the delivery role and wants a second event to follow the
    /// first, as AsyncSubject's element then completed).
    mutating func enqueue(_ event: EventBox, to subscribers: SubjectSubscribers) {
        pending.enqueue(PendingDelivery(event: event, subscribers: subscribers))
    }

    /// Ends the caller's delivery role if nothing is queued; returns whether it did.
    @inline(__always)
    mutating func releaseIfIdle() -> Bool {
        guard pending.isEmpty else { return false }
        isDelivering = false
        deliverer = nil
        return true
    }

    /// Takes the next queued delivery out of the queue, or returns `nil` after ending the
    /// delivery role when none is left.
    mutating func nextPending() -> PendingDelivery? {
        if releaseIfIdle() { return nil }
        return pending.dequeue()
    }
}

/// How a subscriber that just joined gets its first events; see
/// ``SubjectCoreState/turnForNewSubscriber()``.
enum NewSubscriberTurn {
    /// No delivery was in progress and the caller now holds the delivery role: unlock, deliver
    /// to the new subscriber, then call ``SubjectCore/finishDelivery()``.
    case deliverThenFinish
    /// The calling thread is the one delivering (it subscribed from inside a subscriber):
    /// unlock and deliver now. Safe, because only this thread delivers, and events accepted
    /// after the new subscriber joined are still queued behind the current one.
    case deliverNested
    /// Another thread is delivering: enqueue the first events for the new subscriber (before
    /// unlocking); that thread delivers them before anything accepted later.
    case enqueue
}

/// A queued event with the subscribers of the moment it was accepted.
struct PendingDelivery {
    let event: EventBox
    let subscribers: SubjectSubscribers
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

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

    // The delivery queue. `deliverer` is the thread holding the delivery role, recorded only
    // by subjects that send first events to new subscribers (see `turnForNewSubscriber`);
    // PublishSubject skips it, which saves a call per event. The queue hands each delivery out
    // (keeping no reference), so it never holds the last reference to a subscriber when it
    // empties.
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

    /// Accepts an element for the current subscribers. Returns them if no delivery was in
    /// progress: the caller now holds the delivery role, delivers the element to them once it
    /// has unlocked, then calls ``SubjectCore/finishDelivery()``. Returns `nil` if another
    /// thread is delivering: the element was queued (boxed by `boxed`) for that thread.
    ///
    /// Subjects that use ``turnForNewSubscriber(_:)`` pass `recordingThread: true`.
    @inline(__always)
    mutating func acceptNext(
        _ role: borrowing DeliveryRole,
        recordingThread: Bool = false,
        boxed: () -> EventBox
    ) -> SubjectSubscribers? {
        guard role.claimOrQueue() else {
            pending.enqueue(PendingDelivery(event: boxed(), subscribers: subscribers))
            return nil
        }
        if recordingThread { deliverer = pthread_self() }
        return subscribers
    }

    /// Accepts an event for `subscribers`. Returns `true` if no delivery was in progress: the
    /// caller now holds the delivery role, delivers the event itself once it has unlocked, then
    /// calls ``SubjectCore/finishDelivery()``. Returns `false` if another thread is delivering:
    /// the event was queued (boxed by `boxed`) for that thread.
    ///
    /// Subjects that use ``turnForNewSubscriber(_:)`` pass `recordingThread: true`.
    @inline(__always)
    mutating func accept(
        _ role: borrowing DeliveryRole,
        for subscribers: SubjectSubscribers,
        recordingThread: Bool = false,
        boxed: () -> EventBox
    ) -> Bool {
        guard role.claimOrQueue() else {
            pending.enqueue(PendingDelivery(event: boxed(), subscribers: subscribers))
            return false
        }
        if recordingThread { deliverer = pthread_self() }
        return true
    }

    /// How a subscriber that just joined gets its first events (a BehaviorSubject's value, a
    /// ReplaySubject's buffer) without overlapping or reordering with events accepted after it
    /// joined.
    ///
    /// Every claim of such a subject records its thread, so while the role is held
    /// `deliverer` is its holder (when the role is free it may name an earlier holder, hence
    /// the first check).
    mutating func turnForNewSubscriber(_ role: borrowing DeliveryRole) -> NewSubscriberTurn {
        if role.isHeld, let deliverer, pthread_equal(deliverer, pthread_self()) != 0 {
            return .deliverNested
        }
        guard role.claimOrQueue() else { return .enqueue }
        deliverer = pthread_self()
        return .deliverThenFinish
    }

    /// Queues `event` for `subscribers` behind everything queued so far; the caller was told
    /// to `.enqueue` by ``turnForNewSubscriber(_:)``, or holds the delivery role.
    mutating func enqueue(_ event: EventBox, to subscribers: SubjectSubscribers, _ role: borrowing DeliveryRole) {
        pending.enqueue(PendingDelivery(event: event, subscribers: subscribers))
        role.markQueued()
    }

    /// For the holder of the delivery role: takes the next queued delivery out of the queue,
    /// or gives the role up and returns `nil` when none is left.
    mutating func nextPending(_ role: borrowing DeliveryRole) -> PendingDelivery? {
        guard let delivery = pending.dequeue() else {
            role.release()
            return nil
        }
        return delivery
    }
}

/// How a subscriber that just joined gets its first events; see
/// ``SubjectCoreState/turnForNewSubscriber(_:)``.
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

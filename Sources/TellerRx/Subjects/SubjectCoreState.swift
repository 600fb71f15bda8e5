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
        let ending: SubjectSubscribers
        let pending: FIFOQueue<PendingDelivery>
        let stopEvent: EventBox?
    }

    /// The subscribers that receive the next accepted event, in subscription order.
    private(set) var subscribers = SubjectSubscribers()
    /// The subscribers the terminal event goes to, while it is being delivered: a subscriber
    /// disposed meanwhile (by another one's handler) must still be found, to be marked.
    private var ending = SubjectSubscribers()
    /// The id the next subscriber gets.
    private var nextID: UInt64 = 0
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

    /// Adds a subscriber, with a new id: it receives every event accepted from now on.
    @inline(__always)
    mutating func add(_ subscriber: SubjectSubscriberBase) {
        nextID &+= 1
        subscriber.id = nextID
        subscribers.append(subscriber)
    }

    /// Marks the subscriber with `id` disposed and takes it out of the list, if it is still
    /// listed or waiting for the terminal event; returns it for the caller to let go of after
    /// unlocking. Linear, which beats hashing for the few subscribers a subject usually has.
    mutating func remove(_ id: UInt64) -> SubjectSubscriberBase? {
        if let index = subscribers.firstIndex(where: { $0.id == id }) {
            subscribers[index].markDisposed()
            return subscribers.remove(at: index)
        }
        if let index = ending.firstIndex(where: { $0.id == id }) {
            ending[index].markDisposed()
            return ending.remove(at: index)
        }
        return nil  // already gone with the terminal event or dispose, or disposed before
    }

    /// Marks the subject stopped with `event` (the boxed terminal event) and returns the
    /// subscribers that must get it; the list is emptied, since nobody gets anything after it.
    /// They stay findable by ``remove(_:)`` until ``takeEnding()``, once the event is delivered.
    mutating func stop(with event: EventBox) -> SubjectSubscribers {
        stopEvent = event
        ending = subscribers
        subscribers = []
        return ending
    }

    /// Once the terminal event has been delivered: the subscribers it went to, for the caller
    /// to let go of after unlocking. Empty if the subject has not stopped.
    mutating func takeEnding() -> SubjectSubscribers {
        let ended = ending
        ending = []
        return ended
    }

    /// Marks the subject disposed (forgetting its terminal event): every subscriber is marked
    /// disposed (so a delivery in progress skips the rest of them), subscribers are dropped and
    /// queued deliveries discarded; the caller frees them after unlocking.
    mutating func dispose() -> Dropped {
        isDisposed = true
        for subscriber in subscribers {
            subscriber.markDisposed()
        }
        let dropped = Dropped(subscribers: subscribers, ending: ending, pending: pending, stopEvent: stopEvent)
        stopEvent = nil
        subscribers = []
        ending = []
        pending = FIFOQueue()
        return dropped
    }

    /// Drops every subscriber, for the subject's deinit; the caller frees them after unlocking.
    mutating func removeAll() -> (SubjectSubscribers, SubjectSubscribers) {
        defer {
            subscribers = []
            ending = []
        }
        return (subscribers, ending)
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

    /// Accepts the terminal event for `subscribers`. Returns `true` if no delivery was in
    /// progress: the caller now holds the delivery role, delivers the event itself once it has
    /// unlocked, then calls ``SubjectCore/finishDelivery()``. Returns `false` if another thread
    /// is delivering: the event was queued (boxed by `boxed`) for that thread.
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
            pending.enqueue(PendingDelivery(event: boxed(), subscribers: subscribers, isTerminal: true))
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
    /// The subject's terminal event: once it is delivered, ``SubjectCoreState/takeEnding()``.
    var isTerminal = false
}

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
/// look-up or an out-of-line call. Keeping this state non-generic (a ManagedBuffer header,
/// like `LockedState`, with the mutex in the same allocation) keeps the per-event path to
/// plain specialized code.
final class SubjectCore: ManagedBuffer<SubjectCoreState, pthread_mutex_t> {
    // Not Sendable (ManagedBuffer never is); the subjects and subscribers that share it are
    // @unchecked Sendable because the header is only reached inside `withLock`, under the mutex.

    /// Makes a core for a new subject.
    static func make() -> SubjectCore {
        let buffer = SubjectCore.create(minimumCapacity: 1) { _ in SubjectCoreState() }
        let core = unsafeDowncast(buffer, to: SubjectCore.self)
        core.withUnsafeMutablePointerToElements { Lock.initialize($0, recursive: false) }
        return core
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }

    /// Runs `body` with the state, under the lock. Never call observers or user code in it.
    @inline(__always)
    func withLock<Result>(_ body: (inout SubjectCoreState) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, mutex in
            let result = pthread_mutex_lock(mutex)
            assert(result == 0, "pthread_mutex_lock failed with \(result)")
            defer {
                let result = pthread_mutex_unlock(mutex)
                assert(result == 0, "pthread_mutex_unlock failed with \(result)")
            }
            return try body(&state.pointee)
        }
    }

    /// Whether anyone is subscribed.
    var hasObservers: Bool {
        withLock { !$0.subscribers.isEmpty }
    }

    /// Whether the subject was disposed.
    var isDisposed: Bool {
        withLock { $0.isDisposed }
    }

    /// Removes `subscriber` (it was disposed), and releases its observer unless a delivery is
    /// in progress (then the delivering thread does, when it is done).
    func remove(_ subscriber: SubjectSubscriberBase) {
        if withLock({ $0.remove(subscriber) }) {
            subscriber.releaseObserver()
        }
    }

    /// Drops every subscriber and releases their observers: called when the subject is
    /// deallocated (no delivery can be in progress then), which also breaks the reference
    /// cycle between this core and its subscribers.
    func removeAll() {
        withLock { $0.removeAll() }.releaseObservers()
    }

    /// Disposes the subject: runs `body` (the subject clears its own state) and
    /// ``SubjectCoreState/dispose()`` under the lock, then releases the dropped observers.
    func dispose(_ body: () -> Void) {
        let released = withLock { state -> SubjectSubscribers? in
            body()
            return state.dispose()
        }
        released?.releaseObservers()
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
    /// own events: delivers what was queued meanwhile, then gives up the delivery role and
    /// releases the observers of subscribers that left during the delivery.
    @inline(__always)
    func finishDelivery() {
        var released: SubjectSubscribers?
        if withLock({ $0.releaseIfIdle(releasing: &released) }) {
            released?.releaseObservers()
            return
        }
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
        var released: SubjectSubscribers?
        while let delivery = withLock({ $0.nextPending(releasing: &released) }) {
            delivery.event.deliver(to: delivery.subscribers)
        }
        released?.releaseObservers()
    }
}

/// The state every subject keeps under its lock. Its methods are called inside
/// ``SubjectCore/withLock(_:)``.
///
/// **Releasing observers.** A subscriber leaves the subject once: disposed (``remove(_:)``),
/// ended with it (``stop()``), dropped by ``dispose()`` or ``removeAll()``. Whoever takes it
/// out of the list is responsible for releasing its observer, but only when no delivery can
/// still reach it: at once if no delivery is in progress, otherwise the subscriber waits in
/// `awaitingRelease` until the delivering thread gives up its role (by then it has delivered
/// everything queued, including a terminal event).
struct SubjectCoreState {
    /// The subscribers that receive the next accepted event, in subscription order.
    private(set) var subscribers = SubjectSubscribers()
    /// The terminal event the subject accepted, if any (boxed), for late subscribers.
    private(set) var stopEvent: EventBox?
    /// Whether the subject was disposed.
    private(set) var isDisposed = false

    // The delivery queue. `deliverer` is the delivering thread, recorded only by subjects that
    // send first events to new subscribers (see `turnForNewSubscriber`); PublishSubject skips
    // it, which saves a call per event.
    private var isDelivering = false
    private var deliverer: pthread_t?
    private var pending = ContiguousArray<PendingDelivery>()
    private var head = 0
    private var awaitingRelease = SubjectSubscribers()

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

    /// Removes `subscriber` if it is still listed. Linear, which beats hashing for the few
    /// subscribers a subject usually has. Returns whether the caller must release its
    /// observer now (after unlocking).
    mutating func remove(_ subscriber: SubjectSubscriberBase) -> Bool {
        guard let index = subscribers.firstIndex(where: { $0 === subscriber }) else {
            return false  // already gone with a terminal event or dispose, which release it
        }
        subscribers.remove(at: index)
        if isDelivering {
            awaitingRelease.append(subscriber)
            return false
        }
        return true
    }

    /// Marks the subject stopped with `event` (the boxed terminal event) and returns the
    /// subscribers that must get it; the list is emptied, since nobody gets anything after it.
    /// Their observers are released when the delivery of the terminal event is over.
    mutating func stop(with event: EventBox) -> SubjectSubscribers {
        stopEvent = event
        let stopped = subscribers
        subscribers = []
        awaitingRelease.append(contentsOf: stopped)
        return stopped
    }

    /// Marks the subject disposed (forgetting its terminal event): every subscriber is marked disposed (so a delivery in
    /// progress skips the rest of them) and dropped, and queued deliveries are discarded.
    /// Returns the subscribers whose observers the caller must release now (after unlocking),
    /// or `nil` if a delivery in progress will.
    mutating func dispose() -> SubjectSubscribers? {
        isDisposed = true
        stopEvent = nil
        for subscriber in subscribers {
            subscriber.markDisposed()
        }
        let dropped = subscribers
        subscribers = []
        pending = []
        head = 0
        if isDelivering {
            awaitingRelease.append(contentsOf: dropped)
            return nil
        }
        return dropped
    }

    /// Drops every subscriber, for the subject's deinit; the caller releases their observers.
    mutating func removeAll() -> SubjectSubscribers {
        let dropped = subscribers
        subscribers = []
        return dropped
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
            pending.append(PendingDelivery(event: boxed(), subscribers: subscribers))
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
        pending.append(PendingDelivery(event: event, subscribers: subscribers))
    }

    /// Ends the caller's delivery role if nothing is queued; returns whether it did. Then
    /// `released` holds the subscribers whose observers the caller must release (after
    /// unlocking), if any.
    @inline(__always)
    mutating func releaseIfIdle(releasing released: inout SubjectSubscribers?) -> Bool {
        guard head == pending.count else { return false }
        isDelivering = false
        deliverer = nil
        if head != 0 {
            // Keep a small buffer for the next burst; give a large one back.
            if pending.capacity > 64 {
                pending = []
            } else {
                pending.removeAll(keepingCapacity: true)
            }
            head = 0
        }
        if !awaitingRelease.isEmpty {
            released = awaitingRelease
            awaitingRelease = []
        }
        return true
    }

    /// The next queued delivery, or `nil` after ending the delivery role (as
    /// ``releaseIfIdle(releasing:)``) when none is left.
    mutating func nextPending(releasing released: inout SubjectSubscribers?) -> PendingDelivery? {
        if releaseIfIdle(releasing: &released) { return nil }
        defer { head += 1 }
        return pending[head]
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

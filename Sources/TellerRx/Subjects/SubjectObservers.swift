import Synchronization

/// The non-generic half of a subject's subscriber: the disposed flag and the way back to the
/// subject's core. It is also the `Disposable` that `subscribe` returns.
///
/// The flag is checked before every delivery, so a subscriber disposed on the delivering
/// thread (by itself or by another subscriber) gets nothing more, even from an emission already
/// in progress. Non-generic so that the subscriber list is a plain, fully specialized array.
///
/// Once it has left its subject (disposed, subject ended, disposed or deallocated), the
/// subscriber lets go of its observer (``releaseObserver()``), as RxSwift does, so a kept
/// subscription doesn't keep the observer's closures (and what they capture) alive. The core
/// calls that at a moment when no delivery is in progress, never under its lock.
class SubjectSubscriberBase: Disposable, @unchecked Sendable {
    // @unchecked: `disposed` is atomic; `owner` is immutable.
    private let disposed = Atomic<Bool>(false)
    // Strong: the core does not own the subject, and every way a subscriber leaves the list
    // (dispose, terminal event, subject disposed or deallocated) breaks the cycle with it.
    private let owner: SubjectCore

    init(owner: SubjectCore) {
        self.owner = owner
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Whether this subscriber was disposed (by its subscription or by its subject).
    @inline(__always)
    final var isDisposed: Bool {
        disposed.load(ordering: .relaxed)
    }

    /// Stops delivery to this subscriber and removes it from its subject. Idempotent.
    final func dispose() {
        guard !disposed.exchange(true, ordering: .relaxed) else { return }
        owner.remove(self)
    }

    /// Stops delivery without touching the subject: used under the subject's lock when the
    /// subject itself is disposed and drops every subscriber at once.
    final func markDisposed() {
        disposed.store(true, ordering: .relaxed)
    }

    /// Lets go of the observer. Called once, by the core, when this subscriber has left the
    /// subject and no delivery can reach it any more. Subclasses override it.
    func releaseObserver() {}
}

/// A subscriber of a subject of `Element`s.
class SubjectSubscriber<Element>: SubjectSubscriberBase, @unchecked Sendable {
    // @unchecked: no state of its own.

    /// Delivers `event` unless this subscriber has been disposed. Called only by the thread
    /// that holds the subject's delivery role, so calls never overlap.
    @inline(__always)
    final func deliver(_ event: Event<Element>) {
        if isDisposed { return }
        on(event)
    }

    /// Sends `event` to the observer. Subclasses override it.
    func on(_ event: Event<Element>) {
        preconditionFailure("SubjectSubscriber.on must be overridden")
    }
}

/// A subject subscriber holding a concrete observer (no closure in between).
final class ObserverSubjectSubscriber<Observer: ObserverType>: SubjectSubscriber<Observer.Element>,
    @unchecked Sendable
{
    // @unchecked: `observer` is read only by the thread delivering, and cleared only when no
    // delivery can reach this subscriber any more (see `SubjectCoreState`), with the subject's
    // lock ordering the two.
    private var observer: Observer?

    init(observer: Observer, owner: SubjectCore) {
        self.observer = observer
        super.init(owner: owner)
    }

    override func on(_ event: Event<Observer.Element>) {
        observer?.on(event)
    }

    override func releaseObserver() {
        observer = nil
    }
}

/// The subscribers of a subject, in subscription order. Every element of a subject of
/// `Element`s is a `SubjectSubscriber<Element>`.
typealias SubjectSubscribers = ContiguousArray<SubjectSubscriberBase>

extension ContiguousArray where Element == SubjectSubscriberBase {
    /// Lets every subscriber go of its observer. Never call it under the subject's lock: an
    /// observer's deinit may run user code.
    func releaseObservers() {
        for subscriber in self {
            subscriber.releaseObserver()
        }
    }

    /// Sends `event` to each subscriber in order, skipping the ones disposed meanwhile.
    ///
    /// Every subscriber in a subject's list was created by that subject with its own
    /// element type, so the downcast is an invariant (checked in debug builds).
    @inline(__always)
    func deliver<Value>(_ event: Event<Value>) {
        withUnsafeBufferPointer { subscribers in
            for subscriber in subscribers {
                unsafeDowncast(subscriber, to: SubjectSubscriber<Value>.self).deliver(event)
            }
        }
    }
}

/// An event boxed so that the core stays non-generic: a queued delivery, or the terminal event
/// kept for late subscribers. Allocated only on those paths, never per uncontended event.
class EventBox {
    /// Delivers the boxed event to `subscribers`.
    func deliver(to subscribers: SubjectSubscribers) {
        preconditionFailure("EventBox.deliver must be overridden")
    }
}

/// A boxed event of a subject of `Element`s.
final class TypedEventBox<Element>: EventBox {
    let event: Event<Element>

    init(_ event: Event<Element>) {
        self.event = event
    }

    override func deliver(to subscribers: SubjectSubscribers) {
        subscribers.deliver(event)
    }
}

/// Boxes `event`. Out of line, so that callers on the uncontended path don't fetch the box
/// type's metadata.
@inline(never)
func box<Element>(_ event: Event<Element>) -> EventBox {
    TypedEventBox(event)
}

extension EventBox {
    /// The event in a box made by a subject of `Element`s (an invariant: a subject only keeps
    /// boxes of its own events).
    @inline(__always)
    func unboxed<Element>(as type: Element.Type) -> Event<Element> {
        unsafeDowncast(self, to: TypedEventBox<Element>.self).event
    }
}

/// Answers a subscription to a subject that has ended (`stopEvent`) or was disposed (`nil`):
/// the observer gets the terminal event, or ``RxError/disposed(object:)`` naming `subject`.
@inline(never)
func refuse<Observer: ObserverType>(_ observer: Observer, stopEvent: EventBox?, subject: String) {
    if let stopEvent {
        observer.on(stopEvent.unboxed(as: Observer.Element.self))
    } else {
        observer.on(.error(RxError.disposed(object: subject)))
    }
}

/// What `subscribe` returns for a subject: disposing it stops delivery to the subscriber and
/// removes it from the subject. Idempotent.
///
/// Two words, so an `any Disposable` holds it inline: a subscription allocates no object of its
/// own. It names its subscriber by the id the subject gave it, not by reference: the subscriber
/// (the list entry that holds the observer) is freed, with its observer, as soon as it has left
/// the subject and no delivery still holds it, as in RxSwift, so a kept subscription doesn't
/// keep the observer's closures (and what they capture) alive. Ids are never reused, so
/// disposing again once the subscriber is gone does nothing.
struct SubjectSubscription: Disposable {
    // Strong: the core's state does not own the subject, and holds no reference back to this.
    let owner: LockedState<SubjectCoreState>
    let id: UInt64

    func dispose() {
        owner.remove(id)
    }
}

/// The non-generic half of a subject's subscriber (an entry of its subscriber list): the id
/// its ``SubjectSubscription`` names it by, and the disposed flag checked before every
/// delivery, so a subscriber disposed on the delivering thread (by itself or by another
/// subscriber) gets nothing more, even from an emission already in progress. Non-generic so
/// that the list is a plain, fully specialized array.
class SubjectSubscriberBase {
    /// Given by the subject when the subscriber joins, under its lock; read under the lock, or
    /// by the thread that subscribed.
    final var id: UInt64 = 0
    /// Set under the subject's lock, when the subscription or the subject is disposed.
    private final let disposed = AtomicState(false)

    init() {
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Whether this subscriber was disposed (by its subscription or by its subject).
    @inline(__always)
    final var isDisposed: Bool {
        disposed.isSet
    }

    /// Stops delivery to this subscriber. Called under the subject's lock.
    final func markDisposed() {
        disposed.set()
    }
}

/// A subscriber of a subject of `Element`s.
class SubjectSubscriber<Element>: SubjectSubscriberBase {
    /// Delivers `event` unless the subscription has been disposed. Called only by the thread
    /// that holds the subject's delivery role, so calls never overlap.
    @inline(__always)
    final func deliver(_ event: Event<Element>) {
        if isDisposed { return }
        on(event)
    }

    /// Delivers `element` as a `next` event unless the subscription has been disposed; the
    /// observer receives it through ``ObserverType/onNext(_:)``, without an ``Event`` (whose
    /// every `switch` in unspecialized code costs a runtime metadata look-up).
    @inline(__always)
    final func deliverNext(_ element: Element) {
        if isDisposed { return }
        onNext(element)
    }

    /// Sends `event` to the observer. Subclasses override it.
    func on(_ event: Event<Element>) {
        preconditionFailure("SubjectSubscriber.on must be overridden")
    }

    /// Sends `element` to the observer. Subclasses override it.
    func onNext(_ element: Element) {
        preconditionFailure("SubjectSubscriber.onNext must be overridden")
    }
}

/// A subject subscriber holding a concrete observer (no closure in between). The observer is
/// a `let`, so each delivery calls it in place, without retaining it.
final class ObserverSubjectSubscriber<Observer: ObserverType>: SubjectSubscriber<Observer.Element> {
    private let observer: Observer

    init(observer: Observer) {
        self.observer = observer
        super.init()
    }

    override func on(_ event: Event<Observer.Element>) {
        observer.on(event)
    }

    override func onNext(_ element: Observer.Element) {
        observer.onNext(element)
    }
}

/// The subscribers of a subject, in subscription order. Every element of a subject of
/// `Element`s is a `SubjectSubscriber<Element>`.
typealias SubjectSubscribers = ContiguousArray<SubjectSubscriberBase>

extension ContiguousArray where Element == SubjectSubscriberBase {

    /// Sends `event` to each subscriber in order, skipping the ones disposed meanwhile.
    ///
    /// Every subscriber in a subject's list was created by that subject with its own
    /// element type, so the downcast is an invariant (checked in debug builds). The array keeps
    /// the subscribers alive, so they are used without retaining each one: this loop runs once
    /// per event and subscriber, where reference counting would be most of the cost.
    @inline(__always)
    func deliver<Value>(_ event: Event<Value>) {
        forEachUnretained(as: Value.self) { $0.deliver(event) }
    }

    /// Sends `element` to each subscriber in order, skipping the ones disposed meanwhile (see
    /// ``SubjectSubscriber/deliverNext(_:)``).
    @inline(__always)
    func deliverNext<Value>(_ element: Value) {
        forEachUnretained(as: Value.self) { $0.deliverNext(element) }
    }

    @inline(__always)
    private func forEachUnretained<Value>(as _: Value.Type, _ body: (SubjectSubscriber<Value>) -> Void) {
        withUnsafeBufferPointer { subscribers in
            subscribers.withMemoryRebound(to: Unmanaged<SubjectSubscriberBase>.self) { unretained in
                for subscriber in unretained {
                    subscriber._withUnsafeGuaranteedRef {
                        body(unsafeDowncast($0, to: SubjectSubscriber<Value>.self))
                    }
                }
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

/// Boxes `element` as a queued `next` event, delivered without building an ``Event``. Out of
/// line, like ``box(_:)``.
@inline(never)
func box<Element>(next element: Element) -> EventBox {
    NextEventBox(element)
}

/// A boxed element of a subject of `Element`s, queued for delivery.
private final class NextEventBox<Element>: EventBox {
    let element: Element

    init(_ element: Element) {
        self.element = element
    }

    override func deliver(to subscribers: SubjectSubscribers) {
        subscribers.deliverNext(element)
    }
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

/// Takes the element out of a `next` event without a runtime metadata look-up per event.
///
/// A subject's code usually runs unspecialized (called from another module). There, any
/// `switch` over an `Event<Element>` first fetches the metadata of `Event<Element>` from the
/// runtime's cache, which costs more than the rest of an emission's bookkeeping. An instance
/// of this class, made once per subject as `EventKind<Event<Element>>`, carries that metadata
/// in its own class metadata, so ``withElement(of:_:)`` gets it from `self` for free.
///
/// ``withElement(of:_:)`` must take it from `self`: inlined into the subject's generic code, or
/// with `self` optimized away as unused (the optimizer then passes the metadata instead,
/// fetched by the caller), it would cost the look-up again. Hence `@inline(never)`, and
/// `stopCount`, which exists so that the method uses `self` (it is touched only on the rare
/// terminal path).
final class EventKind<SomeEvent: NextElementProviding> {
    /// How many terminal events this subject was sent.
    private let stopCount = AtomicState(0)

    /// Calls `send` with `subject` and `event`'s element if it is a `next` event; returns
    /// `false`, without calling it, for a terminal event.
    ///
    /// The subject is passed through, rather than captured by `send`, so that `send` captures
    /// nothing: a closure capturing the subject retains and releases it once per event.
    @inline(never)
    func withElement(
        of event: SomeEvent,
        for subject: AnyObject,
        _ send: (AnyObject, SomeEvent.Element) -> Void
    ) -> Bool {
        if event.withNextElement({ send(subject, $0) }) { return true }
        stopCount.increment()
        return false
    }
}

/// An event that can hand out its element (``Event`` can).
protocol NextElementProviding {
    associatedtype Element

    /// Calls `body` with the element if this is a `next` event; returns whether it was.
    func withNextElement(_ body: (Element) -> Void) -> Bool
}

extension Event: NextElementProviding {
    func withNextElement(_ body: (Element) -> Void) -> Bool {
        guard case .next(let element) = self else { return false }
        body(element)
        return true
    }
}

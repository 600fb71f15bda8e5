/// A subject that sends each event to the observers subscribed at that moment.
///
/// Late subscribers get only the events sent after they subscribed; once the subject has
/// ended, they get the terminal event at once. Anything sent after `error` or `completed` is
/// ignored.
///
/// **Threads.** Events may be sent from any thread, concurrently, and from inside a
/// subscriber. They are delivered one at a time, in the order the subject accepted them, on
/// the thread that is already delivering (or the sending thread if none is): subscribers
/// never see two events at once and all of them see the same order. An event sent from inside
/// a subscriber is delivered after the current one has reached every subscriber.
///
/// ```swift
/// let subject = PublishSubject<Int>()
/// subject.onNext(1)                                   // nobody listening: dropped
/// let subscription = subject.subscribe(onNext: { print($0) })
/// subject.onNext(2)                                   // prints 2
/// subscription.dispose()
/// subject.onNext(3)                                   // nobody listening: dropped
/// ```
public final class PublishSubject<Element: Sendable>: Observable<Element>, SubjectType, ObserverType, Cancelable,
    @unchecked Sendable
{
    // @unchecked: all mutable state is in `core`, under its lock.
    private let core = SubjectCore()
    private let kind = EventKind<Event<Element>>()

    /// Creates a subject with no subscribers.
    public override init() {
        super.init()
    }

    deinit {
        core.removeAll()
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool {
        core.hasObservers
    }

    /// Whether the subject has been disposed.
    public var isDisposed: Bool {
        core.isDisposed
    }

    /// Sends `event` to the current subscribers, on the calling thread or, if another thread
    /// is delivering, on that thread right after the events it already has. Anything sent after
    /// a terminal event, or after ``dispose()``, is ignored.
    ///
    /// - Parameter event: The event to broadcast.
    public func on(_ event: Event<Element>) {
        let isElement = kind.withElement(of: event, for: self) { subject, element in
            unsafeDowncast(subject, to: PublishSubject<Element>.self).onNext(element)
        }
        if !isElement {
            core.end(with: box(event))
        }
    }

    /// Sends `element` to the current subscribers: the same as `on(.next(element))`.
    ///
    /// - Parameter element: The element to broadcast.
    public func onNext(_ element: Element) {
        let subscribers = core.withLock { state -> SubjectSubscribers? in
            guard state.isAccepting else { return nil }
            return state.acceptNext(core.role) { box(next: element) }
        }
        if let subscribers {
            subscribers.deliverNext(element)
            core.finishDelivery()
        }
    }

    /// Subscribes `observer` to the events sent from now on.
    ///
    /// If the subject has ended, `observer` gets the terminal event at once, on the calling
    /// thread; if it was disposed, it gets ``RxError/disposed(object:)``.
    ///
    /// - Parameter observer: Receives later events, serially, on the delivering thread.
    /// - Returns: A disposable that unsubscribes `observer`; after `dispose()` returns on a
    ///   thread, `observer` gets nothing more on that thread.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        // Made before locking, to keep the critical section short.
        let subscriber = core.subscriber(for: observer)
        var stopEvent: EventBox?
        let added = core.withLock { state -> Bool in
            if state.isDisposed { return false }
            stopEvent = state.stopEvent
            if stopEvent != nil { return false }
            state.add(subscriber)
            return true
        }
        if added { return core.subscription(for: subscriber) }
        refuse(observer, stopEvent: stopEvent, subject: "PublishSubject")
        return Disposables.create()
    }

    /// Returns this subject as an observer, to send events into it.
    ///
    /// - Returns: This subject.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    /// Unsubscribes every observer and disposes the subject: events queued for delivery are
    /// dropped, later events are ignored, and later subscribers get
    /// ``RxError/disposed(object:)``. Idempotent.
    public func dispose() {
        core.dispose {}
    }
}

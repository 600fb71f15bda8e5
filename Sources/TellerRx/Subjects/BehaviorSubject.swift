/// A subject that holds a current value: each new subscriber first receives the latest
/// element (or the initial value), then every later event.
///
/// Once the subject has ended, new subscribers get only the terminal event. ``value()`` reads
/// the latest element at any time.
///
/// **Threads.** Events may be sent from any thread, concurrently, and from inside a
/// subscriber; they are delivered one at a time, in the order the subject accepted them, on
/// the thread that is already delivering (or the sending thread if none is). A new subscriber
/// receives the value current when it subscribed, then exactly the events accepted after that:
/// never a value twice, never out of order, even when it subscribes while other threads are
/// sending. Its first value is delivered before `subscribe` returns, except when another
/// thread is delivering at that moment: then that thread delivers it, before any later event.
///
/// ```swift
/// let subject = BehaviorSubject(value: 0)
/// subject.onNext(1)
/// let subscription = subject.subscribe(onNext: { print($0) })   // prints 1
/// subject.onNext(2)                                              // prints 2
/// print(try subject.value())                                     // prints 2
/// subscription.dispose()
/// ```
public final class BehaviorSubject<Element: Sendable>: Observable<Element>, SubjectType, ObserverType, Cancelable,
    @unchecked Sendable
{
    // @unchecked: `element` is only touched inside `core.withLock`; the rest is in `core`.
    private let core = SubjectCore()
    private let kind = EventKind<Event<Element>>()
    private var element: Element

    /// Creates a subject whose current value is `value` until the first element is sent.
    ///
    /// - Parameter value: The value new subscribers receive first, until another is sent.
    public init(value: Element) {
        element = value
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

    /// Returns the latest element, or the initial value if none was sent. After the subject
    /// completed, still returns the last element. Safe from any thread, including from inside a
    /// subscriber (where it may already return an element sent after the one being delivered).
    ///
    /// - Returns: The current value.
    /// - Throws: The subject's error if it ended with one; ``RxError/disposed(object:)`` if it
    ///   was disposed.
    public func value() throws -> Element {
        try core.withLock { state in
            if state.isDisposed { throw RxError.disposed(object: "BehaviorSubject") }
            if let stopEvent = state.stopEvent, case .error(let error) = stopEvent.unboxed(as: Element.self) {
                throw error
            }
            return element
        }
    }

    /// The latest element, whatever the state: for ``BehaviorRelay``, which never ends.
    var latestElement: Element {
        core.withLock { _ in element }
    }

    /// Makes `event`'s element the current value and sends it to the current subscribers, on
    /// the calling thread or, if another thread is delivering, on that thread right after the
    /// events it already has. Anything sent after a terminal event, or after ``dispose()``, is
    /// ignored.
    ///
    /// - Parameter event: The event to broadcast.
    public func on(_ event: Event<Element>) {
        let isElement = kind.withElement(of: event, for: self) { subject, element in
            unsafeDowncast(subject, to: BehaviorSubject<Element>.self).onNext(element)
        }
        if !isElement {
            core.end(with: box(event), recordingThread: true)
        }
    }

    /// Makes `element` the current value and sends it to the current subscribers: the same as
    /// `on(.next(element))`.
    ///
    /// - Parameter element: The new current value.
    public func onNext(_ element: Element) {
        var next = element
        let subscribers = core.withLock { state -> SubjectSubscribers? in
            guard state.isAccepting else { return nil }
            // Swapped, so that the previous value is freed after unlocking (its deinit is user
            // code).
            swap(&self.element, &next)
            return state.acceptNext(core.role, recordingThread: true) { box(next: element) }
        }
        if let subscribers {
            subscribers.deliverNext(element)
            core.finishDelivery()
        }
    }

    /// Subscribes `observer`: it receives the current value, then the events sent from now on.
    ///
    /// If the subject has ended, `observer` gets only the terminal event, at once, on the
    /// calling thread; if it was disposed, it gets ``RxError/disposed(object:)``.
    ///
    /// - Parameter observer: Receives the events, serially, on the delivering thread.
    /// - Returns: A disposable that unsubscribes `observer`; after `dispose()` returns on a
    ///   thread, `observer` gets nothing more on that thread.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let subscriber = core.subscriber(for: observer)
        var stopEvent: EventBox?
        var first: Element?
        let turn = core.withLock { state -> NewSubscriberTurn? in
            if state.isDisposed { return nil }
            stopEvent = state.stopEvent
            if stopEvent != nil { return nil }
            state.add(subscriber)
            first = element
            let turn = state.turnForNewSubscriber(core.role)
            if case .enqueue = turn {
                state.enqueue(box(Event.next(element)), to: [subscriber], core.role)
            }
            return turn
        }
        guard let turn, let first else {
            refuse(observer, stopEvent: stopEvent, subject: "BehaviorSubject")
            return Disposables.create()
        }
        core.finishJoining(turn) { subscriber.deliver(.next(first)) }
        return core.subscription(for: subscriber)
    }

    /// Returns this subject as an observer, to send events into it.
    ///
    /// - Returns: This subject.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    /// Unsubscribes every observer and disposes the subject: events queued for delivery are
    /// dropped, later events are ignored, ``value()`` throws and later subscribers get
    /// ``RxError/disposed(object:)``. Idempotent.
    public func dispose() {
        core.dispose {}
    }
}

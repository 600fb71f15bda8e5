/// A subject that replays buffered elements to each new subscriber, then sends it every
/// later event.
///
/// ``create(bufferSize:)`` keeps the last `bufferSize` elements; ``createUnbounded()`` keeps
/// them all. Once the subject has ended, a new subscriber gets the buffered elements, then the
/// terminal event.
///
/// **Threads.** Events may be sent from any thread, concurrently, and from inside a
/// subscriber; they are delivered one at a time, in the order the subject accepted them, on
/// the thread that is already delivering (or the sending thread if none is). A new subscriber
/// receives the buffer as it was when it subscribed, then exactly the events accepted after
/// that: never an element twice, never out of order. The replay happens before `subscribe`
/// returns, except when another thread is delivering at that moment: then that thread replays
/// it, before any later event.
///
/// ```swift
/// let subject = ReplaySubject<Int>.create(bufferSize: 2)
/// subject.onNext(1)
/// subject.onNext(2)
/// subject.onNext(3)
/// let subscription = subject.subscribe(onNext: { print($0) })   // prints 2, 3
/// subject.onNext(4)                                              // prints 4
/// subscription.dispose()
/// ```
public final class ReplaySubject<Element: Sendable>: Observable<Element>, SubjectType, ObserverType, Disposable,
    @unchecked Sendable
{
    // @unchecked: `buffer` is only touched inside `core.withLock`; the rest is in `core`.
    private let core = SubjectCore()
    private let kind = EventKind<Event<Element>>()
    private var buffer: RingBuffer<Element>

    private init(capacity: Int) {
        buffer = RingBuffer(capacity: capacity)
        super.init()
    }

    deinit {
        core.removeAll()
    }

    /// Creates a subject that replays at most the last `bufferSize` elements to new subscribers.
    ///
    /// - Parameter bufferSize: How many of the latest elements to keep; 0 keeps none (the
    ///   subject then behaves like a ``PublishSubject`` that also replays its terminal event).
    ///   A negative size is reported as misuse in debug builds and treated as 0.
    /// - Returns: A new subject.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        if bufferSize < 0 {
            reportMisuse("ReplaySubject.create(bufferSize: \(bufferSize)): the size must not be negative; using 0.")
        }
        return ReplaySubject(capacity: max(0, bufferSize))
    }

    /// Creates a subject that replays every element it ever received to new subscribers.
    ///
    /// The buffer grows without limit: use it only where the number of elements stays
    /// reasonable.
    ///
    /// - Returns: A new subject.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(capacity: .max)
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool {
        core.hasObservers
    }

    /// Buffers `event`'s element and sends it to the current subscribers, on the calling thread
    /// or, if another thread is delivering, on that thread right after the events it already
    /// has. Anything sent after a terminal event, or after ``dispose()``, is ignored.
    ///
    /// - Parameter event: The event to buffer and broadcast.
    public func on(_ event: Event<Element>) {
        let isElement = kind.withElement(of: event, for: self) { subject, element in
            unsafeDowncast(subject, to: ReplaySubject<Element>.self).onNext(element)
        }
        if !isElement {
            core.end(with: box(event), recordingThread: true)
        }
    }

    /// Buffers `element` and sends it to the current subscribers: the same as
    /// `on(.next(element))`.
    ///
    /// - Parameter element: The element to buffer and broadcast.
    public func onNext(_ element: Element) {
        // Swapped with the oldest element when the buffer is full, so that it is freed after
        // unlocking (its deinit is user code).
        var dropped = element
        let subscribers = core.withLock { state -> SubjectSubscribers? in
            guard state.isAccepting else { return nil }
            buffer.append(swapping: &dropped)
            return state.acceptNext(core.role, recordingThread: true) { box(next: element) }
        }
        if let subscribers {
            subscribers.deliverNext(element)
            core.finishDelivery()
        }
    }

    /// Subscribes `observer`: it receives the buffered elements, then the events sent from now
    /// on.
    ///
    /// If the subject has ended, `observer` gets the buffered elements and the terminal event
    /// at once, on the calling thread; if it was disposed, it gets
    /// ``RxError/disposed(object:)``.
    ///
    /// - Parameter observer: Receives the events, serially, on the delivering thread.
    /// - Returns: A disposable that unsubscribes `observer`; after `dispose()` returns on a
    ///   thread, `observer` gets nothing more on that thread.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let subscriber = core.subscriber(for: observer)
        var replay = RingBuffer<Element>(capacity: 0)
        var stopEvent: EventBox?
        var disposed = false
        let turn = core.withLock { state -> NewSubscriberTurn? in
            if state.isDisposed {
                disposed = true
                return nil
            }
            replay = buffer
            stopEvent = state.stopEvent
            if stopEvent != nil { return nil }
            state.add(subscriber)
            let turn = state.turnForNewSubscriber(core.role)
            if case .enqueue = turn, !replay.isEmpty {
                state.enqueue(ReplayedElements(replay), to: [subscriber], core.role)
            }
            return turn
        }
        guard let turn else {
            if !disposed {
                replay.forEach { observer.on(.next($0)) }
            }
            refuse(observer, stopEvent: stopEvent, subject: "ReplaySubject")
            return Disposables.create()
        }
        core.finishJoining(turn) {
            replay.forEach { subscriber.deliver(.next($0)) }
        }
        return core.subscription(for: subscriber)
    }

    /// Returns this subject as an observer, to send events into it.
    ///
    /// - Returns: This subject.
    public func asObserver() -> ReplaySubject<Element> {
        self
    }

    /// Unsubscribes every observer, empties the buffer and disposes the subject: events queued
    /// for delivery are dropped, later events are ignored and later subscribers get
    /// ``RxError/disposed(object:)``. Idempotent.
    public func dispose() {
        // The elements are freed after unlocking: their deinit is user code.
        var dropped = RingBuffer<Element>(capacity: 0)
        core.dispose { swap(&dropped, &buffer) }
    }
}

/// A buffer snapshot queued for a subscriber that joined while another thread was delivering.
private final class ReplayedElements<Element>: EventBox {
    private let elements: RingBuffer<Element>

    init(_ elements: RingBuffer<Element>) {
        self.elements = elements
    }

    override func deliver(to subscribers: SubjectSubscribers) {
        elements.forEach { element in subscribers.deliver(Event.next(element)) }
    }
}

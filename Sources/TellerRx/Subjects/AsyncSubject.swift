/// A subject that sends only its last element, and only when it completes.
///
/// On `completed`, subscribers get the last element (if any) followed by `completed`; on
/// `error`, they get only the error. Subscribers that come later get the same outcome at once.
/// Nothing is sent before the subject ends.
///
/// **Threads.** Events may be sent from any thread, concurrently, and from inside a
/// subscriber. The outcome is delivered once to each subscriber, on the thread that ends the
/// subject (or, if another thread is delivering then, on that thread), never overlapping
/// another delivery.
///
/// ```swift
/// let subject = AsyncSubject<Int>()
/// let subscription = subject.subscribe(onNext: { print($0) }, onCompleted: { print("done") })
/// subject.onNext(1)
/// subject.onNext(2)
/// subject.onCompleted()      // prints 2, then done
/// subscription.dispose()
/// ```
public final class AsyncSubject<Element: Sendable>: Observable<Element>, SubjectType, ObserverType,
    @unchecked Sendable
{
    // @unchecked: `lastElement` and `stopEvent` are only touched inside `core.withLock`.
    private let core = SubjectCore.make()
    private var lastElement: Element?
    private var stopEvent: Event<Element>?

    /// Creates a subject with no subscribers and no element.
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

    /// Remembers an element, or ends the subject: on `completed` the subscribers get the last
    /// element (if any) and `completed`; on `error`, the error. Delivery happens on the calling
    /// thread or, if another thread is delivering, on that thread. Anything sent after a
    /// terminal event is ignored.
    ///
    /// - Parameter event: The event.
    public func on(_ event: Event<Element>) {
        var subscribers = SubjectSubscribers()
        var last: Element?
        let deliverNow = core.withLock { state -> Bool in
            guard state.isAccepting else { return false }
            switch event {
            case .next(let element):
                lastElement = element
                return false
            case .error:
                stopEvent = event
                subscribers = state.stop()
                return state.accept(for: subscribers) { pendingEvent(event) }
            case .completed:
                stopEvent = event
                subscribers = state.stop()
                guard let lastElement else {
                    return state.accept(for: subscribers) { pendingEvent(event) }
                }
                last = lastElement
                if state.accept(for: subscribers, box: { pendingEvent(Event.next(lastElement)) }) {
                    return true
                }
                // Queued behind another delivery (not possible today, since the outcome is the
                // subject's only delivery; kept so the pair stays together if that changes).
                state.enqueue(pendingEvent(event), to: subscribers)
                return false
            }
        }
        guard deliverNow else { return }
        if let last {
            subscribers.deliver(Event.next(last))
        }
        subscribers.deliver(event)
        core.finishDelivery()
    }

    /// Subscribes `observer`: it gets the subject's outcome when the subject ends.
    ///
    /// If the subject has already ended, `observer` gets the outcome at once, on the calling
    /// thread.
    ///
    /// - Parameter observer: Receives the outcome, on the delivering thread.
    /// - Returns: A disposable that unsubscribes `observer`.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let subscriber = ObserverSubjectSubscriber(observer: observer, owner: core)
        var last: Element?
        var terminal: Event<Element>?
        core.withLock { state in
            if state.isStopped {
                terminal = stopEvent
                if case .completed? = stopEvent { last = lastElement }
                return
            }
            state.add(subscriber)
        }
        guard let terminal else { return subscriber }
        if let last { observer.on(.next(last)) }
        observer.on(terminal)
        return Disposables.create()
    }

    /// Returns this subject as an observer, to send events into it.
    ///
    /// - Returns: This subject.
    public func asObserver() -> AsyncSubject<Element> {
        self
    }
}

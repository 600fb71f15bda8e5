/// A subject that sends each event to the observers subscribed at that moment.
///
/// Late subscribers get only later elements; after the subject ends, they get the terminal
/// event at once. Emitting from several threads, or from inside a subscriber, is safe:
/// events are delivered one at a time, in the order the subject accepted them, on the thread
/// that is already delivering. Anything sent after `error` or `completed` is ignored.
///
/// ```swift
/// let subject = PublishSubject<Int>()
/// subject.onNext(1)                                   // nobody listening: dropped
/// let subscription = subject.subscribe(onNext: { print($0) })
/// subject.onNext(2)                                   // prints 2
/// subscription.dispose()
/// ```
public final class PublishSubject<Element: Sendable>: Observable<Element>, SubjectType, ObserverType, Cancelable,
    @unchecked Sendable
{
    // @unchecked: all mutable state is in `state`.
    private struct State {
        var subscribers = SubjectSubscribers<Element>()
        var stopEvent: Event<Element>?
        var isDisposed = false
        var queue = DeliveryQueue<Element>()
    }

    private let state = LockedState(State())

    /// Creates a subject with no subscribers.
    public override init() {
        super.init()
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool {
        state.withLock { !$0.subscribers.isEmpty }
    }

    /// Whether the subject has been disposed.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Sends `event` to the current subscribers. Events after a terminal event are ignored.
    ///
    /// - Parameter event: The event to broadcast.
    public func on(_ event: Event<Element>) {
        var deliverNow = state.withLock { state -> (Event<Element>, SubjectSubscribers<Element>)? in
            guard state.stopEvent == nil, !state.isDisposed else { return nil }
            if event.isStopEvent { state.stopEvent = event }
            guard state.queue.begin(event) else { return nil }
            defer { if event.isStopEvent { state.subscribers = [] } }
            return (event, state.subscribers)
        }
        while let (event, subscribers) = deliverNow {
            for subscriber in subscribers {
                subscriber.deliver(event)
            }
            deliverNow = state.withLock { state in
                guard let next = state.queue.next() else { return nil }
                defer { if next.isStopEvent { state.subscribers = [] } }
                return (next, state.subscribers)
            }
        }
    }

    /// Subscribes `observer` to events sent from now on.
    ///
    /// - Parameter observer: Receives later events; gets the terminal event at once if the
    ///   subject has ended, or ``RxError/disposed(object:)`` if it was disposed.
    /// - Returns: A disposable that unsubscribes `observer`.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let subscriber = ObserverSubjectSubscriber(observer: observer) { [weak self] subscriber in
            self?.state.withLock { $0.subscribers.remove(subscriber: subscriber) }
        }
        let stopEvent = state.withLock { state -> Event<Element>? in
            if state.isDisposed { return .error(RxError.disposed(object: "PublishSubject")) }
            if let stopEvent = state.stopEvent { return stopEvent }
            state.subscribers.append(subscriber)
            return nil
        }
        if let stopEvent {
            observer.on(stopEvent)
            return Disposables.create()
        }
        return subscriber
    }

    /// Returns this subject as an observer.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    /// Unsubscribes everyone and disposes the subject; later subscribers get
    /// ``RxError/disposed(object:)``.
    public func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.subscribers = []
        }
    }
}

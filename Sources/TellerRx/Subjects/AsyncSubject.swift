/// A subject that sends only its last element, and only when it completes.
///
/// On `completed`, subscribers get the last element (if any) followed by `completed`; on
/// `error`, they get only the error. Subscribers that come later get the same outcome at once.
/// Nothing is sent before the subject ends.
///
/// **Threads.** Events may be sent from any thread, concurrently, and from inside a
/// subscriber. The outcome is delivered once to each subscriber, on the thread that ends the
/// subject; a subscriber that comes later gets it on its own thread, during `subscribe`.
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
    // @unchecked: `lastElement` is only touched inside `core.withLock`; the rest is in `core`.
    private let core = SubjectCore()
    private var lastElement: Element?

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
    /// element (if any) and `completed`; on `error`, only the error. Delivery happens on the
    /// calling thread. Anything sent after a terminal event is ignored.
    ///
    /// - Parameter event: The event.
    public func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error:
            core.end(with: box(event))
        case .completed:
            // The outcome is one box holding the last element (if any) and `completed`, so it
            // is delivered, queued and kept for late subscribers as one unit.
            let outcome = AsyncOutcome<Element>()
            core.end(with: outcome) { outcome.element = lastElement }
        }
    }

    /// Keeps `element` as the last element, to send when the subject completes: the same as
    /// `on(.next(element))`. Runs on the calling thread; ignored once the subject has ended.
    ///
    /// - Parameter element: The new last element.
    public func onNext(_ element: Element) {
        // Swapped, so that the previous element is freed after unlocking (its deinit is user code).
        var latest: Element? = element
        core.withLock { state in
            if state.isAccepting { swap(&lastElement, &latest) }
        }
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
        let subscriber = core.subscriber(for: observer)
        let outcome = core.withLock { state -> EventBox? in
            if let stopEvent = state.stopEvent { return stopEvent }
            state.add(subscriber)
            return nil
        }
        guard let outcome else { return core.subscription(for: subscriber) }
        if let completion = outcome as? AsyncOutcome<Element> {
            if let element = completion.element { observer.on(.next(element)) }
            observer.on(.completed)
        } else {
            observer.on(outcome.unboxed(as: Element.self))
        }
        return Disposables.create()
    }

    /// Returns this subject as an observer, to send events into it.
    ///
    /// - Returns: This subject.
    public func asObserver() -> AsyncSubject<Element> {
        self
    }
}

/// An AsyncSubject's successful outcome: its last element, if any, then `completed`.
private final class AsyncOutcome<Element>: EventBox {
    /// Written once, under the subject's lock, before the box is shared; only read after that.
    var element: Element?

    override func deliver(to subscribers: SubjectSubscribers) {
        if let element { subscribers.deliver(Event.next(element)) }
        subscribers.deliver(Event<Element>.completed)
    }
}

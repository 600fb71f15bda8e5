/// A ``ReplaySubject`` that can only send elements: it replays buffered elements to each new
/// subscriber and never completes or fails.
///
/// **Threads.** ``accept(_:)`` may be called from any thread, concurrently, and from inside a
/// subscriber; elements are delivered one at a time, in the order accepted, on the thread that
/// is already delivering (or the calling thread if none is).
public final class ReplayRelay<Element: Sendable>: ObservableType, Sendable {
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
    }

    /// Creates a relay that replays at most the last `bufferSize` elements to new subscribers.
    ///
    /// - Parameter bufferSize: How many of the latest elements to keep.
    /// - Returns: A new relay.
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: .create(bufferSize: bufferSize))
    }

    /// Creates a relay that replays every element it ever accepted to new subscribers; the
    /// buffer grows without limit.
    ///
    /// - Returns: A new relay.
    public static func createUnbounded() -> ReplayRelay<Element> {
        ReplayRelay(subject: .createUnbounded())
    }

    /// Buffers `event` and sends it to the current subscribers.
    ///
    /// - Parameter event: The element to send.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`: it receives the buffered elements, then every element accepted
    /// from now on. The relay never sends `error` or `completed`.
    ///
    /// - Parameter observer: Receives the elements, serially, on the delivering thread.
    /// - Returns: A disposable that unsubscribes `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// Returns the relay's elements as an observable sequence.
    ///
    /// - Returns: An observable that never ends.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }

    /// This relay as an ``Infallible``, which it is: a relay never fails or completes.
    ///
    /// Subscribers get what ``asObservable()`` gives them, on the same threads.
    ///
    /// - Returns: An infallible of the relay's elements.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

/// A ``PublishSubject`` that can only send elements: it never completes or fails, so it is
/// safe to share as an input that must keep working (UI events, notifications).
///
/// **Threads.** ``accept(_:)`` may be called from any thread, concurrently, and from inside a
/// subscriber; elements are delivered one at a time, in the order accepted, on the thread that
/// is already delivering (or the calling thread if none is).
///
/// ```swift
/// let taps = PublishRelay<Void>()
/// let subscription = taps.subscribe(onNext: { print("tap") })
/// taps.accept(())            // prints tap
/// subscription.dispose()
/// ```
public final class PublishRelay<Element: Sendable>: ObservableType, Sendable {
    private let subject = PublishSubject<Element>()

    /// Creates a relay with no subscribers.
    public init() {}

    /// Sends `event` to the current subscribers.
    ///
    /// - Parameter event: The element to send.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer` to the elements accepted from now on. The relay never sends
    /// `error` or `completed`.
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

/// A ``BehaviorSubject`` that can only send elements: it holds a current ``value``, sends it
/// to each new subscriber, and never completes or fails.
///
/// **Threads.** ``accept(_:)`` and ``value`` may be used from any thread, concurrently, and
/// from inside a subscriber; elements are delivered one at a time, in the order accepted, on the
/// thread that is already delivering (or the calling thread if none is). A new subscriber gets
/// the value current when it subscribed, then exactly the later elements.
///
/// ```swift
/// let count = BehaviorRelay(value: 0)
/// let subscription = count.subscribe(onNext: { print($0) })   // prints 0
/// count.accept(count.value + 1)                                // prints 1
/// subscription.dispose()
/// ```
public final class BehaviorRelay<Element: Sendable>: ObservableType, Sendable {
    private let subject: BehaviorSubject<Element>

    /// Creates a relay whose current value is `value`.
    ///
    /// - Parameter value: The initial current value.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value: the latest accepted element, or the initial value.
    ///
    /// Reading it and then calling ``accept(_:)`` is not atomic: another thread may accept an
    /// element in between.
    public var value: Element {
        subject.latestElement
    }

    /// Makes `event` the current value and sends it to the current subscribers.
    ///
    /// - Parameter event: The new value.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`: it receives the current value, then every element accepted from
    /// now on. The relay never sends `error` or `completed`.
    ///
    /// - Parameter observer: Receives the elements, serially, on the delivering thread.
    /// - Returns: A disposable that unsubscribes `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// Returns the relay's values as an observable sequence.
    ///
    /// - Returns: An observable that starts with the current value and never ends.
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

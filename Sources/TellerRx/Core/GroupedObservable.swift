/// An observable sequence with a key: one group of ``ObservableType/groupBy(keySelector:)``,
/// holding the source elements that share ``key``.
///
/// Subscribing to a group is thread-safe and may happen on any thread; its events are
/// delivered on the thread that delivers the source element.
public struct GroupedObservable<Key: Sendable, Element: Sendable>: ObservableType, Sendable {
    /// The key shared by every element of this group.
    public let key: Key

    private let source: Observable<Element>

    /// Creates a group with `key` whose elements come from `source`.
    ///
    /// - Parameters:
    ///   - key: The group's key.
    ///   - source: The group's elements.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    ///
    /// - Parameter observer: Receives the group's events.
    /// - Returns: A disposable that ends the subscription.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group as a plain ``Observable`` (without its key).
    ///
    /// - Returns: The group's observable.
    public func asObservable() -> Observable<Element> {
        source
    }
}

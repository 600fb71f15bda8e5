/// An observable sequence that shares one subscription to its source, made when
/// ``connect()`` is called rather than when an observer subscribes.
///
/// Subscribing only registers an observer; nothing flows until `connect()`. Use
/// ``ConnectableObservableType/refCount()`` to connect with the first subscriber and disconnect
/// after the last one, or ``ObservableType/share(replay:scope:)`` for the common case.
public protocol ConnectableObservableType<Element>: ObservableType {
    /// Subscribes the shared subject to the source, if it is not connected already.
    ///
    /// The source is subscribed on the calling thread. Calling `connect()` again while
    /// connected returns the existing connection.
    ///
    /// - Returns: The connection: disposing it unsubscribes from the source, and observers
    ///   stop receiving events until the next `connect()`.
    func connect() -> any Disposable
}

/// An ``Observable`` that is also a ``ConnectableObservableType``: the type `publish()` and
/// `multicast` return.
///
/// ```swift
/// let published = Observable.of(1, 2).publish()
/// _ = published.subscribe(onNext: { print($0) })   // nothing yet
/// _ = published.connect()                            // prints 1, 2
/// ```
public class ConnectableObservable<Element: Sendable>: Observable<Element>, ConnectableObservableType,
    @unchecked Sendable
{
    // @unchecked: the base class has no state; subclasses keep theirs locked.

    override init() {
        super.init()
    }

    /// Subscribes the shared subject to the source, if it is not connected already.
    ///
    /// - Returns: The connection; dispose it to disconnect from the source.
    public func connect() -> any Disposable {
        preconditionFailure("ConnectableObservable.connect must be overridden by \(type(of: self))")
    }
}

/// A type that can be turned into an ``Observable``: observables themselves and the traits
/// (``Single``, ``Maybe``, ``Completable``).
public protocol ObservableConvertibleType<Element>: SendableMetatype {
    /// The type of element the sequence produces.
    associatedtype Element: Sendable

    /// This sequence as an ``Observable``.
    ///
    /// - Returns: An observable sequence with the same events.
    func asObservable() -> Observable<Element>
}

/// A push-based sequence of elements that observers subscribe to.
///
/// Every operator in TellerRx is an extension of this protocol. A sequence sends
/// `next* (error | completed)?` to each observer, one event at a time.
public protocol ObservableType<Element>: ObservableConvertibleType {
    /// Subscribes `observer` to the sequence's events.
    ///
    /// Events arrive serially on whatever thread the source and its operators deliver them;
    /// use ``ObservableType/observe(on:)`` to choose one.
    ///
    /// - Parameter observer: Receives the events.
    /// - Returns: A disposable that ends the subscription and frees its resources.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element
}

extension ObservableType {
    /// This sequence as an ``Observable``.
    ///
    /// - Returns: An observable with the same events.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}

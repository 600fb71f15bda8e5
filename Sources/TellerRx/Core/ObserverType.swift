/// Receives the events of an observable sequence.
///
/// TellerRx calls `on(_:)` serially: two events for one observer never overlap, but they may
/// arrive on different threads, depending on the operators and schedulers upstream.
public protocol ObserverType<Element>: SendableMetatype {
    /// The type of element received.
    associatedtype Element

    /// Receives one event.
    ///
    /// - Parameter event: The next element, or the terminal error or completion.
    func on(_ event: Event<Element>)

    /// Receives one element: the same as `on(.next(element))`.
    ///
    /// The default implementation calls `on(.next(element))`. TellerRx's own observers implement
    /// it to receive elements without building an ``Event``, which is measurably cheaper in
    /// generic code. An observer that implements it must behave exactly as `on(.next(element))`.
    ///
    /// - Parameter element: The element to receive.
    func onNext(_ element: Element)
}

extension ObserverType {
    /// Sends a `next` event with `element`: calls `on(.next(element))`.
    ///
    /// - Parameter element: The element to send.
    @inlinable
    public func onNext(_ element: Element) {
        on(.next(element))
    }

    /// Sends the terminal `completed` event.
    @inline(__always)
    public func onCompleted() {
        on(.completed)
    }

    /// Sends the terminal `error` event.
    ///
    /// - Parameter error: The error that ends the sequence.
    @inline(__always)
    public func onError(_ error: any Error) {
        on(.error(error))
    }
}

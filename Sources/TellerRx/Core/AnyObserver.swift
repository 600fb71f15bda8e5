/// A type-erased observer: forwards every event to a closure or to a wrapped observer.
public struct AnyObserver<Element>: ObserverType, Sendable {
    /// The closure that receives each event.
    public typealias EventHandler = @Sendable (Event<Element>) -> Void

    /// Where events go. Inlinable, so the switch over the event in ``on(_:)`` is compiled at
    /// the caller for its concrete element type: generic code that switches over an `Event`
    /// pays a type-metadata lookup per event, and `Observable.create` emits through here.
    @usableFromInline
    let target: AnyObserverBox<Element>

    /// Creates an observer that calls `eventHandler` for every event.
    ///
    /// - Parameter eventHandler: Called serially, on the thread that delivers each event.
    public init(eventHandler: @escaping EventHandler) {
        target = HandlerBox(eventHandler)
    }

    /// Creates an observer that forwards every event to `observer`.
    ///
    /// - Parameter observer: The observer to wrap.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        target = ObserverBox(observer)
    }

    /// Forwards `event` to the wrapped handler or observer.
    ///
    /// - Parameter event: The event to forward.
    @inlinable
    public func on(_ event: Event<Element>) {
        if case .next(let element) = event {
            target.onNext(element)
        } else {
            target.on(event)
        }
    }

    /// Forwards `element` to the wrapped handler (as a `next` event) or observer.
    ///
    /// - Parameter element: The element to forward.
    @inlinable
    public func onNext(_ element: Element) {
        target.onNext(element)
    }

    /// Returns this observer.
    public func asObserver() -> AnyObserver<Element> {
        self
    }
}

/// What an ``AnyObserver`` forwards to: a class with two entry points rather than a closure,
/// so elements can skip building an `Event`.
@usableFromInline
class AnyObserverBox<Element>: @unchecked Sendable {
    // @unchecked: stateless; subclasses hold an immutable closure or observer, called serially
    // by contract.
    @usableFromInline
    func on(_ event: Event<Element>) {
        preconditionFailure("AnyObserverBox.on must be overridden")
    }

    @usableFromInline
    func onNext(_ element: Element) {
        preconditionFailure("AnyObserverBox.onNext must be overridden")
    }
}

private final class HandlerBox<Element>: AnyObserverBox<Element>, @unchecked Sendable {
    // @unchecked: `handler` is immutable and Sendable.
    private let handler: @Sendable (Event<Element>) -> Void

    init(_ handler: @escaping @Sendable (Event<Element>) -> Void) {
        self.handler = handler
    }

    override func on(_ event: Event<Element>) {
        handler(event)
    }

    override func onNext(_ element: Element) {
        handler(.next(element))
    }
}

private final class ObserverBox<Observer: ObserverType>: AnyObserverBox<Observer.Element>, @unchecked Sendable {
    // @unchecked: `observer` is immutable and called serially by contract.
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func on(_ event: Event<Observer.Element>) {
        observer.on(event)
    }

    override func onNext(_ element: Observer.Element) {
        observer.onNext(element)
    }
}

extension ObserverType {
    /// Erases the type of this observer.
    ///
    /// - Returns: An ``AnyObserver`` forwarding to this observer.
    public func asObserver() -> AnyObserver<Element> {
        AnyObserver(self)
    }

    /// Returns an observer that transforms each element with `transform` before forwarding it
    /// here. If `transform` throws, this observer receives the error.
    ///
    /// - Parameter transform: Runs on the thread that delivers each element.
    /// - Returns: An observer of the source element type.
    public func mapObserver<Source>(_ transform: @escaping @Sendable (Source) throws -> Element) -> AnyObserver<Source>
    {
        let box = UncheckedSendable(self)
        return AnyObserver { event in box.value.on(event.map(transform)) }
    }
}

/// A type-erased observer: forwards every event to a closure or to a wrapped observer.
public struct AnyObserver<Element>: ObserverType, Sendable {
    /// The closure that receives each event.
    public typealias EventHandler = @Sendable (Event<Element>) -> Void

    private let handler: EventHandler

    /// Creates an observer that calls `eventHandler` for every event.
    ///
    /// - Parameter eventHandler: Called serially, on the thread that delivers each event.
    public init(eventHandler: @escaping EventHandler) {
        handler = eventHandler
    }

    /// Creates an observer that forwards every event to `observer`.
    ///
    /// - Parameter observer: The observer to wrap.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        let box = UncheckedSendable(observer)
        handler = { box.value.on($0) }
    }

    /// Forwards `event` to the wrapped handler.
    ///
    /// - Parameter event: The event to forward.
    public func on(_ event: Event<Element>) {
        handler(event)
    }

    /// Returns this observer.
    public func asObserver() -> AnyObserver<Element> {
        self
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

/// Carries a value the compiler cannot prove `Sendable` across a closure boundary.
/// Used only where TellerRx's own serialization makes the access safe (observers are called
/// serially by contract).
struct UncheckedSendable<Value>: @unchecked Sendable {
    // @unchecked: every use documents why the access is serialized.
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

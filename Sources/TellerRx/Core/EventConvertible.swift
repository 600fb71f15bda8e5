/// A type that can be read as an ``Event``; lets ``ObservableType/dematerialize()`` accept
/// sequences of events.
public protocol EventConvertible<Element> {
    /// The element type of the event.
    associatedtype Element

    /// This value as an event.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// This event itself.
    public var event: Event<Element> {
        self
    }
}

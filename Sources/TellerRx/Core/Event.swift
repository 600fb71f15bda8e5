/// One notification from an observable sequence.
///
/// A sequence sends any number of `next` events, then at most one terminal event, `error` or
/// `completed`. Nothing follows a terminal event: TellerRx drops and (in debug builds) reports
/// anything a misbehaving source sends after one.
@frozen
public enum Event<Element> {
    /// The sequence produced an element.
    case next(Element)
    /// The sequence failed with an error; this ends it.
    case error(any Error)
    /// The sequence ended successfully.
    case completed
}

extension Event: Sendable where Element: Sendable {}

extension Event {
    /// The element of a `next` event, or `nil` for a terminal event.
    public var element: Element? {
        if case .next(let element) = self { return element }
        return nil
    }

    /// The error of an `error` event, or `nil`.
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// Whether this is a `completed` event.
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Whether this is a terminal event (`error` or `completed`).
    public var isStopEvent: Bool {
        switch self {
        case .next: false
        case .error, .completed: true
        }
    }

    /// Transforms the element of a `next` event; terminal events pass through unchanged.
    ///
    /// - Parameter transform: Applied to the element of a `next` event.
    /// - Returns: The transformed event, or an `error` event holding what `transform` threw.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        switch self {
        case .next(let element):
            do { return .next(try transform(element)) } catch { return .error(error) }
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}

extension Event: CustomDebugStringConvertible {
    /// A description such as `next(1)`, `error(SomeError)` or `completed`.
    public var debugDescription: String {
        switch self {
        case .next(let element): "next(\(element))"
        case .error(let error): "error(\(error))"
        case .completed: "completed"
        }
    }
}

extension Event: Equatable where Element: Equatable {
    /// Events are equal when they are the same kind with equal elements. Two errors are equal
    /// when they are equal as `Equatable` values of the same type, or else when their
    /// descriptions and types match (so tests can compare errors that are not `Equatable`).
    public static func == (lhs: Event, rhs: Event) -> Bool {
        switch (lhs, rhs) {
        case (.next(let left), .next(let right)): left == right
        case (.completed, .completed): true
        case (.error(let left), .error(let right)): errorsAreEqual(left, right)
        default: false
        }
    }
}

/// Compares two errors for tests: equal as `Equatable` values when the error type is
/// `Equatable`, otherwise when they have the same type and the same description.
func errorsAreEqual(_ lhs: any Error, _ rhs: any Error) -> Bool {
    if let lhs = (lhs as Any) as? any Equatable {
        return isEqual(lhs, rhs)
    }
    return ObjectIdentifier(type(of: lhs)) == ObjectIdentifier(type(of: rhs))
        && String(reflecting: lhs) == String(reflecting: rhs)
}

private func isEqual<Value: Equatable>(_ lhs: Value, _ rhs: any Error) -> Bool {
    guard let rhs = rhs as? Value else { return false }
    return lhs == rhs
}

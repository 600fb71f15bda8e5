import TellerRx

/// A virtual time of a ``TestScheduler``, in ticks.
public typealias TestTime = Int

/// A value recorded at a virtual time: an event sent by a test observable or received by a
/// ``TestableObserver``. Compare arrays of them with `==` in assertions.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When the value was recorded.
    public let time: TestTime
    /// The recorded value, usually an ``/TellerRx/Event``.
    public let value: Value

    /// Creates a record of `value` at `time`.
    ///
    /// - Parameters:
    ///   - time: The virtual time.
    ///   - value: The value.
    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    /// A description such as `next(1) @ 210`.
    public var debugDescription: String {
        "\(value) @ \(time)"
    }
}

extension Recorded: Equatable where Value: Equatable {}
extension Recorded: Sendable where Value: Sendable {}

extension Recorded {
    /// A `next` event with `element` at `time`.
    ///
    /// - Parameters:
    ///   - time: The virtual time.
    ///   - element: The element.
    /// - Returns: The recorded event.
    public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: time, value: .next(element))
    }

    /// A `completed` event at `time`.
    ///
    /// - Parameters:
    ///   - time: The virtual time.
    ///   - type: The element type, when it cannot be inferred.
    /// - Returns: The recorded event.
    public static func completed<Element>(
        _ time: TestTime,
        _ type: Element.Type = Element.self
    )
        -> Recorded<Event<Element>> where Value == Event<Element>
    {
        Recorded(time: time, value: .completed)
    }

    /// An `error` event with `error` at `time`.
    ///
    /// - Parameters:
    ///   - time: The virtual time.
    ///   - error: The error.
    ///   - type: The element type, when it cannot be inferred.
    /// - Returns: The recorded event.
    public static func error<Element>(
        _ time: TestTime,
        _ error: any Error,
        _ type: Element.Type = Element.self
    )
        -> Recorded<Event<Element>> where Value == Event<Element>
    {
        Recorded(time: time, value: .error(error))
    }
}

extension Recorded {
    /// Builds recorded events from a marble diagram, one character per tick from `start`:
    /// `-` is a tick with no event, a letter or digit is `next` with `values[character]`,
    /// `|` is `completed`, `#` is `error(error)`.
    ///
    /// ```swift
    /// Recorded.events("--a--b--|", values: ["a": 1, "b": 2], start: 200)
    /// // [.next(202, 1), .next(205, 2), .completed(208)]
    /// ```
    ///
    /// - Parameters:
    ///   - diagram: The marble diagram.
    ///   - values: The element for each value character.
    ///   - error: The error for `#`.
    ///   - start: The time of the first character.
    ///   - ticksPerCharacter: How many ticks one character stands for.
    /// - Returns: The recorded events.
    public static func events<Element>(
        _ diagram: String,
        values: [Character: Element],
        error: any Error = MarbleError(),
        start: TestTime = 0,
        ticksPerCharacter: TestTime = 1
    ) -> [Recorded<Event<Element>>] where Value == Event<Element> {
        var result: [Recorded<Event<Element>>] = []
        for (offset, character) in diagram.enumerated() {
            let time = start + offset * ticksPerCharacter
            switch character {
            case "-", " ": continue
            case "|": result.append(.completed(time))
            case "#": result.append(.error(time, error))
            default:
                if let element = values[character] {
                    result.append(.next(time, element))
                }
            }
        }
        return result
    }
}

/// The error a marble diagram's `#` stands for when no other is given.
public struct MarbleError: Error, Equatable, Sendable {
    /// Creates the marble error.
    public init() {}
}

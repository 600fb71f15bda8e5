/// When a test observable was subscribed to and when that subscription was disposed.
public struct Subscription: Hashable, Sendable, CustomDebugStringConvertible {
    /// The virtual time of the subscription.
    public let subscribe: TestTime
    /// The virtual time of disposal, or `Int.max` while still subscribed.
    public let unsubscribe: TestTime

    /// A subscription made at `subscribe` and never disposed.
    ///
    /// - Parameter subscribe: The virtual time of the subscription.
    public init(_ subscribe: TestTime) {
        self.init(subscribe, .max)
    }

    /// A subscription made at `subscribe` and disposed at `unsubscribe`.
    ///
    /// - Parameters:
    ///   - subscribe: The virtual time of the subscription.
    ///   - unsubscribe: The virtual time of disposal.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// A description such as `(200, 1000)` or `(200, ∞)`.
    public var debugDescription: String {
        unsubscribe == .max ? "(\(subscribe), ∞)" : "(\(subscribe), \(unsubscribe))"
    }
}

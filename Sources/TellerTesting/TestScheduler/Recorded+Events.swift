import TellerRx

extension Recorded {
    /// The given recorded events as an array, as RxTest spells it.
    ///
    /// ```swift
    /// let xs = scheduler.createHotObservable(Recorded.events(.next(210, 1), .completed(250)))
    /// ```
    ///
    /// - Parameter recordedEvents: The events and their times.
    /// - Returns: The events, in the order given.
    public static func events<Element>(
        _ recordedEvents: Recorded<Event<Element>>...
    ) -> [Recorded<Event<Element>>] where Value == Event<Element> {
        recordedEvents
    }

    /// The given recorded events, as RxTest spells it (the array form of
    /// ``Recorded/events(_:)-(Recorded<Event<Element>>...)``).
    ///
    /// - Parameter recordedEvents: The events and their times.
    /// - Returns: The same events.
    public static func events<Element>(
        _ recordedEvents: [Recorded<Event<Element>>]
    ) -> [Recorded<Event<Element>>] where Value == Event<Element> {
        recordedEvents
    }
}

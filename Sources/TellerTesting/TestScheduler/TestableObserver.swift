@_spi(TellerInternals) import TellerRx

/// An observer that records every event it receives with the virtual time it arrived.
///
/// Create one with ``TestScheduler/createObserver(_:)`` or get one from
/// ``TestScheduler/start(created:subscribed:disposed:create:)``; then compare ``events`` with
/// the expected `[Recorded<Event<Element>>]`.
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable {
    // @unchecked: `recorded` is locked.
    private let scheduler: TestScheduler
    private let recorded = LockedState<[Recorded<Event<Element>>]>([])

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// The events received so far, with the virtual time each arrived.
    public var events: [Recorded<Event<Element>>] {
        recorded.withLock { $0 }
    }

    /// Records `event` at the scheduler's current time.
    ///
    /// - Parameter event: The received event.
    public func on(_ event: Event<Element>) {
        let time = scheduler.clock
        recorded.withLock { $0.append(Recorded(time: time, value: event)) }
    }
}

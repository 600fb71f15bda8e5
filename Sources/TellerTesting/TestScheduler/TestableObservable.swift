@_spi(TellerInternals) import TellerRx

/// An observable created by a ``TestScheduler`` that sends recorded events at virtual times
/// and logs every subscription.
public class TestableObservable<Element: Sendable>: ObservableType, @unchecked Sendable {
    // @unchecked: mutable state is locked.
    /// The scheduler the events are sent on.
    public let testScheduler: TestScheduler
    /// The events this observable sends.
    public let recordedEvents: [Recorded<Event<Element>>]
    let log = LockedState<[Subscription]>([])

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    /// Every subscription made so far, with when it was disposed.
    public var subscriptions: [Subscription] {
        log.withLock { $0 }
    }

    /// Subscribes `observer`; overridden by the hot and cold variants.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        preconditionFailure("TestableObservable.subscribe must be overridden")
    }

    /// Logs a subscription at the current time and returns its index in the log.
    func logSubscription() -> Int {
        let time = testScheduler.clock
        return log.withLock { log in
            log.append(Subscription(time))
            return log.count - 1
        }
    }

    /// Records the disposal of the subscription at `index` at the current time.
    func logUnsubscription(at index: Int) {
        let time = testScheduler.clock
        log.withLock { log in
            log[index] = Subscription(log[index].subscribe, time)
        }
    }
}

/// Sends its events at their absolute times to whoever is subscribed then.
final class HotObservable<Element: Sendable>: TestableObservable<Element>, @unchecked Sendable {
    // @unchecked: `observers` is locked.
    private let observers = LockedState<[Int: AnyObserver<Element>]>([:])
    private let nextKey = LockedState(0)

    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            // Unchecked: the test scheduler runs the work on the thread that drives the test.
            let event = UncheckedSendable(recorded.value)
            testScheduler.scheduleAt(recorded.time) { [observers] in
                for (_, observer) in observers.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
                    observer.on(event.value)
                }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let key = nextKey.withLock { key in
            defer { key += 1 }
            return key
        }
        observers.withLock { $0[key] = AnyObserver(observer) }
        let index = logSubscription()
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.observers.withLock { _ = $0.removeValue(forKey: key) }
            self.logUnsubscription(at: index)
        }
    }
}

/// Sends its events to each subscriber at times relative to that subscription.
final class ColdObservable<Element: Sendable>: TestableObservable<Element>, @unchecked Sendable {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let index = logSubscription()
        let target = AnyObserver(observer)
        let scheduled = CompositeDisposable()
        for recorded in recordedEvents {
            // Unchecked: the test scheduler runs the work on the thread that drives the test.
            let event = UncheckedSendable(recorded.value)
            scheduled.insert(
                testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                    target.on(event.value)
                    return Disposables.create()
                }
            )
        }
        return Disposables.create { [weak self] in
            scheduled.dispose()
            self?.logUnsubscription(at: index)
        }
    }
}

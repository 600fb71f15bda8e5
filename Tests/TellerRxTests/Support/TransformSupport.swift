import Synchronization
@_spi(TellerInternals) import TellerRx

/// Subscribes to `observable` and returns the events it sent before `subscribe` returned
/// (everything, for a synchronous source).
func synchronousEvents<Source: ObservableType>(_ observable: Source) -> [Event<Source.Element>] {
    let events = Locked<[Event<Source.Element>]>([])
    let subscription = observable.subscribe { event in events.withLock { $0.append(event) } }
    subscription.dispose()
    return events.value
}

/// A cold source that hands its observer to the test, so a test can send events whenever it
/// likes, including re-entrantly from inside a downstream handler. Counts subscriptions and
/// disposals.
final class ManualSource<Element: Sendable>: Sendable {
    private let observer = Locked<AnyObserver<Element>?>(nil)
    let subscribeCount = Locked(0)
    let disposeCount = Locked(0)

    var observable: Observable<Element> {
        Observable.create { [self] observer in
            self.observer.withLock { $0 = observer }
            subscribeCount.increment()
            return Disposables.create {
                // Let go of the observer as a real source would, so leak checks see the chain freed.
                self.observer.withLock { $0 = nil }
                self.disposeCount.increment()
            }
        }
    }

    func send(_ event: Event<Element>) {
        observer.value?.on(event)
    }

    func onNext(_ element: Element) {
        send(.next(element))
    }
}

/// An object to capture in closures: when it is freed, the chain that captured it was freed.
final class Token: Sendable {}

/// Runs `body` with a fresh ``Token`` and reports whether the token was freed once `body`
/// returned, while the disposable `body` returned is still held (so completion, not disposal,
/// must have freed the chain).
func tokenIsReleased(after body: (Token) -> any Disposable) -> Bool {
    weak var weakToken: Token?
    let subscription: any Disposable
    do {
        let token = Token()
        weakToken = token
        subscription = body(token)
    }
    let released = weakToken == nil
    subscription.dispose()
    return released
}

/// An observer that checks the Rx contract on real threads: calls never overlap, nothing
/// follows a terminal event, and there is at most one terminal event.
final class ContractObserver<Element>: ObserverType, @unchecked Sendable {
    // @unchecked: all mutable state is in `state`.
    struct State {
        var isInside = false
        var elements = 0
        var terminals = 0
        var violations: [String] = []
    }

    let state = Locked(State())
    private let spin = Atomic<Int>(0)

    func on(_ event: Event<Element>) {
        state.withLock { state in
            if state.isInside { state.violations.append("overlapping calls") }
            if state.terminals > 0 { state.violations.append("\(event) after a terminal event") }
            state.isInside = true
        }
        // Stay inside a little, so an overlapping call from another thread has time to show.
        for _ in 0..<200 { spin.add(1, ordering: .relaxed) }
        state.withLock { state in
            if event.isStopEvent { state.terminals += 1 } else { state.elements += 1 }
            state.isInside = false
        }
    }
}

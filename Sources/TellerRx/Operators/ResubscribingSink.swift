/// The sink of `retry` and `catch(sequence:)`: forwards one attempt's elements and, when the
/// attempt fails, disposes it and subscribes the next source, until one completes or
/// ``nextSource()`` has none left (then the last error, or completion, ends the result).
///
/// A source that fails while being subscribed asks for the next attempt from inside
/// `subscribe`; ``ResubscribeTrampoline`` turns that into another turn of the loop already
/// running on this thread, so the stack does not grow.
class ResubscribingSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `state` is locked; `attempt` is thread-safe; subclasses' iteration state is
    // touched only by the thread running the loop (the trampoline admits one at a time and
    // hands over under the lock).
    typealias Element = Observer.Element

    private struct State {
        var trampoline = ResubscribeTrampoline()
        var lastError: (any Error)?
    }

    private let state = LockedState(State())
    private let attempt = SerialDisposable()

    /// Wires the attempts as this sink's upstream, then subscribes the first source.
    final func start() {
        setSubscription(attempt)
        requestNext(after: nil)
    }

    /// The source of the next attempt, or `nil` when there is none. Called only from the loop.
    func nextSource() -> Observable<Element>? {
        preconditionFailure("ResubscribingSink.nextSource must be overridden by \(type(of: self))")
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    final func onNext(_ element: Element) {
        forwardNext(element)
    }

    final func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .completed:
            forwardTerminal(event)
        case .error(let error):
            requestNext(after: error)
        }
    }

    /// Subscribes the next source, or leaves it to the loop already running.
    private func requestNext(after error: (any Error)?) {
        let mustRun = state.withLock { state in
            if let error { state.lastError = error }
            return state.trampoline.request()
        }
        guard mustRun else { return }
        while state.withLock({ $0.trampoline.take() }) {
            if isDisposed { return }
            guard let next = nextSource() else {
                let lastError = state.withLock { $0.lastError }
                forwardTerminal(lastError.map { .error($0) } ?? .completed)
                return
            }
            // Dispose the failed attempt before starting the next one; the new one is wired
            // before it is subscribed, so disposing the sink reaches a synchronous source.
            let slot = SubscriptionSlot()
            attempt.disposable = slot
            next.subscribeEnteringTrampoline(self, upstreamOf: slot)
        }
    }
}

/// Turns resubscriptions requested while a subscription is being made (a source that fails
/// synchronously) into iterations of a loop on the thread already subscribing, instead of
/// recursion. Kept under the sink's lock.
struct ResubscribeTrampoline {
    private var requested = 0
    private var isRunning = false

    /// Records a request. Returns `true` if the caller must run the loop (taking requests with
    /// ``take()``), `false` if a loop is already running and will take it.
    mutating func request() -> Bool {
        requested += 1
        if isRunning { return false }
        isRunning = true
        return true
    }

    /// Takes one request; returns `false`, ending the loop, when none is left.
    mutating func take() -> Bool {
        guard requested > 0 else {
            isRunning = false
            return false
        }
        requested -= 1
        return true
    }
}

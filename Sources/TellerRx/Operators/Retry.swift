extension ObservableType {
    /// Resubscribes to this sequence whenever it fails, until it completes.
    ///
    /// Each new attempt is subscribed on the thread that delivered the error (after the failed
    /// subscription is disposed). A source that fails synchronously while being subscribed is
    /// retried in a loop on the subscribing thread, not recursively, so the stack does not
    /// grow. **This may never end** if the source always fails.
    ///
    /// - Returns: The elements of every attempt, then the completion of the first attempt that
    ///   completes.
    public func retry() -> Observable<Element> {
        RetryProducer(source: asObservable(), maxAttemptCount: nil)
    }

    /// Subscribes to this sequence up to `maxAttemptCount` times in all while it fails.
    ///
    /// `maxAttemptCount` counts the first subscription: `retry(3)` retries twice. When the last
    /// attempt fails, its error is sent downstream. A count of 0 subscribes to nothing and
    /// completes at once, as in RxSwift. Attempts are subscribed as in ``retry()``.
    ///
    /// - Parameter maxAttemptCount: The most subscriptions to make, the first included.
    /// - Returns: The elements of every attempt, then the completion of the first attempt that
    ///   completes or the error of the last one.
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        if maxAttemptCount < 0 {
            reportMisuse("retry(\(maxAttemptCount)) with a negative count; completing without subscribing.")
        }
        return RetryProducer(source: asObservable(), maxAttemptCount: max(maxAttemptCount, 0))
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

private final class RetryProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let maxAttemptCount: Int?

    init(source: Observable<Element>, maxAttemptCount: Int?) {
        self.source = source
        self.maxAttemptCount = maxAttemptCount
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        cancel: any Cancelable
    ) -> (sink: any Disposable, subscription: any Disposable) where Observer.Element == Element {
        let sink = RetrySink(source: source, maxAttemptCount: maxAttemptCount, observer: observer, cancel: cancel)
        sink.requestAttempt(after: nil)
        return (sink, sink.subscription)
    }
}

private final class RetrySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: mutable state is in `state`; `subscription` is thread-safe.
    typealias Element = Observer.Element

    private struct State {
        var trampoline = ResubscribeTrampoline()
        var attempts = 0
        var lastError: (any Error)?
    }

    private enum Step {
        case subscribe
        case finish(Event<Element>)
        case stop
    }

    private let source: Observable<Element>
    private let maxAttemptCount: Int?
    private let state = LockedState(State())
    let subscription = SerialDisposable()

    init(source: Observable<Element>, maxAttemptCount: Int?, observer: Observer, cancel: any Cancelable) {
        self.source = source
        self.maxAttemptCount = maxAttemptCount
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            requestAttempt(after: error)
        }
    }

    /// Starts the next attempt, or leaves it to the loop already running.
    func requestAttempt(after error: (any Error)?) {
        let mustRun = state.withLock { state in
            if let error { state.lastError = error }
            return state.trampoline.request()
        }
        guard mustRun else { return }
        while true {
            let step = state.withLock { state -> Step in
                guard state.trampoline.take() else { return .stop }
                if let maxAttemptCount, state.attempts >= maxAttemptCount {
                    return .finish(state.lastError.map { .error($0) } ?? .completed)
                }
                state.attempts &+= 1
                return .subscribe
            }
            switch step {
            case .stop:
                return
            case .finish(let event):
                forwardOn(event)
                dispose()
                return
            case .subscribe:
                if isDisposed { return }
                // Dispose the failed attempt before starting the next one.
                subscription.disposable = Disposables.create()
                subscription.disposable = source.subscribe(self)
            }
        }
    }
}

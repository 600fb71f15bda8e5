@_spi(TellerInternals) import TellerRx

/// A plain class that is not `Sendable`, to prove that the trait `create` closures accept code
/// capturing such values (as README data sources do).
final class NonSendableCounter {
    var value = 0
}

/// Records the events a trait `subscribe` closure receives, as strings, so tests can compare
/// them without making the trait event types `Equatable`.
final class TraitEventLog: Sendable {
    private let entries = Locked<[String]>([])

    var events: [String] {
        entries.value
    }

    func record(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }
}

/// An observable that records how often it was subscribed to and disposed, and never emits:
/// used to check that cancellation reaches the source.
final class DisposalProbe<Element: Sendable>: Sendable {
    let subscribeCount = Locked(0)
    let disposeCount = Locked(0)

    var observable: Observable<Element> {
        Observable.create { _ in
            self.subscribeCount.increment()
            return Disposables.create { self.disposeCount.increment() }
        }
    }
}

extension TraitEventLog {
    /// Records a single's outcome as `success(x)` or `failure(error)`.
    func record<Element>(_ event: SingleEvent<Element>) {
        switch event {
        case .success(let element): record("success(\(element))")
        case .failure(let error): record("failure(\(error))")
        }
    }

    /// Records a maybe's outcome as `success(x)`, `error(error)` or `completed`.
    func record<Element>(_ event: MaybeEvent<Element>) {
        record("\(event)")
    }

    /// Records a completable's outcome as `error(error)` or `completed`.
    func record(_ event: CompletableEvent) {
        record("\(event)")
    }
}

/// Whether `body` leaves TellerRx resources alive on every one of several tries. A real leak
/// shows up every time; objects created or freed by tests running in parallel in other suites
/// only disturb some tries, so one clean try proves `body` frees what it creates.
func leaksOnEveryTry(tries: Int = 50, _ body: () -> Void) -> Bool {
    for _ in 0..<tries where resourcesLeaked(by: body) == 0 {
        return false
    }
    return true
}

/// A one-shot signal between tasks and callbacks: `signal()` from anywhere, `wait()` in a task.
/// Waiting is a suspension, never a sleep.
final class AsyncSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    func signal() {
        continuation.yield()
    }

    func wait() async {
        for await _ in stream { return }
    }
}

/// The async form of ``leaksOnEveryTry(tries:_:)``.
func leaksOnEveryTry(tries: Int = 50, _ body: () async throws -> Void) async rethrows -> Bool {
    for _ in 0..<tries {
        let before = Resources.total
        try await body()
        if Resources.total == before { return false }
    }
    return true
}

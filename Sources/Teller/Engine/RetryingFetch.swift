import Foundation
@_spi(TellerInternals) import TellerRx

/// A fetch as every page of every repository makes it: on the background scheduler, with the
/// configured timeout, and tried again as the retry policy says. A first page (``FlightWork``)
/// and a next page (``NextPageWork``) differ only in what they do with its outcome, so they hand
/// it the events they send and what a success becomes. One small run object takes the fetch
/// through its attempts and retries, in place of a chain of operators: this is every refresh's
/// path, and each generic operator costs its run-time type lookups on it.
///
/// It never fails and ends after the event `succeeded` or `failed` makes; disposing it disposes
/// the running attempt or the retry's timer.
struct RetryingFetch<FetchResult: Sendable, FetchError: Error, Event: Sendable>: Sendable {
    let tag: String
    let teller: Teller
    let policy: RetryPolicy
    /// Starts one attempt: the data source's fetch (in the tag's fetch lane, for a first page),
    /// subscribed on the background scheduler, handing `answer` what it sends, on any thread.
    /// Returns what disposes it.
    let attempt: @Sendable (_ answer: @escaping @Sendable (AttemptEvent) -> Void) -> any Disposable
    /// Whether the answer is handled on the background scheduler, whatever thread it came on
    /// (a first page, whose save must not run on the data source's thread), or where it came.
    /// An answer given while the fetch was being started is on the background scheduler already
    /// (``ThreadMark/fetchStart``) and is handled there at once.
    let answersOnBackground: Bool
    /// What the fetch's result becomes; `stamp` is the ``Teller/invalidationStamp`` noted when
    /// the successful attempt started, so an invalidation that came later is not cleared by it.
    ///
    /// It hands `finish` the event that ends the run, once: at once (a next page), or later (a
    /// first page's save waits for the writes before it in its lane). A call to `finish` after
    /// the run was disposed is dropped.
    let succeeded:
        @Sendable (_ result: FetchResult, _ stamp: Int, _ finish: @escaping @Sendable (Event) -> Void) -> Void
    /// The event that ends the fetch when the policy gives up: a `.failure` response, a failed or
    /// empty `Single`, or a timeout.
    let failed: @Sendable (any Error) -> Event
    /// The event a retry sends when it is scheduled and when it starts; `nil` sends nothing.
    let retrying: @Sendable (RetryNotice) -> Event?

    /// What a retry says about itself.
    enum RetryNotice: Sendable {
        case scheduled(PendingRetry, delay: Duration)
        /// Attempt number `attempt` (2 for the first retry) starts.
        case started(attempt: Int)
    }

    /// Runs the fetch: `deliver` hears its events in order, each on the thread it happened on;
    /// the event `succeeded` or `failed` makes is the last. Disposing the returned run disposes
    /// the running attempt or the retry's timer, and nothing is delivered afterwards. A plain
    /// callback, not an `Observable`: the run is every refresh's path, and each layer of a
    /// generic operator costs its allocations and run-time type lookups there.
    func run(deliver: @escaping @Sendable (Event) -> Void) -> any Disposable {
        let run = RetryingFetchRun(fetch: self, deliver: deliver)
        run.attempt(afterFailures: 0)
        return run
    }

    /// What an attempt's first event says: the fetch's result, or the error it failed with (a
    /// `.failure` response, a failed or empty `Single`, a timeout).
    fileprivate func outcome(of event: AttemptEvent) -> Result<FetchResult, any Error> {
        switch event {
        case .next(.success(let result)):
            return .success(result)
        case .next(.failure(let error)):
            return .failure(error)
        case .error(RxError.timeout):
            let seconds = teller.fetchTimeout.map(secondsOf) ?? 0
            return .failure(TellerError.fetchTimedOut(tag: tag, seconds: seconds))
        case .error(let error):
            return .failure(error)
        case .completed:
            return .failure(TellerError.fetchProducedNoResponse(tag: tag))
        }
    }

    typealias AttemptEvent = TellerRx.Event<FetchResponse<FetchResult, FetchError>>
}

/// One run of a ``RetryingFetch``: its attempts, retry timers and what the last success became,
/// one after the other. Each step's subscription is put in `current` before it is subscribed, so
/// a step that answers while being subscribed (or disposal, from any thread) ends it at once.
private final class RetryingFetchRun<FetchResult: Sendable, FetchError: Error, Event: Sendable>: Disposable, Sendable {
    private let fetch: RetryingFetch<FetchResult, FetchError, Event>
    private let deliver: @Sendable (Event) -> Void
    private let current = SerialDisposable()

    private typealias AttemptEvent = RetryingFetch<FetchResult, FetchError, Event>.AttemptEvent

    init(fetch: RetryingFetch<FetchResult, FetchError, Event>, deliver: @escaping @Sendable (Event) -> Void) {
        self.fetch = fetch
        self.deliver = deliver
    }

    /// Delivers `event` unless the run was disposed.
    private func send(_ event: Event) {
        guard !current.isDisposed else { return }
        deliver(event)
    }

    /// Attempt number `failures + 1`. Only its first event counts: the fetch is a `Single`.
    func attempt(afterFailures failures: Int) {
        guard !current.isDisposed else { return }
        // Noted before the fetch starts: an invalidation that comes later is not cleared by data
        // fetched before it.
        let stamp = fetch.teller.invalidationStamp
        let scheduler = fetch.teller.backgroundScheduler
        let answered = AtomicState(false)
        let step = SingleAssignmentDisposable()
        current.disposable = step
        // The first of the fetch's first event and the timeout is the answer; the other is
        // dropped, and disposed with the step when the run moves on.
        let timer = fetch.teller.fetchTimeout.map { timeout in
            scheduler.scheduleRelative((), dueTime: timeout) { [self] _ in
                if answered.set() {
                    handle(.error(RxError.timeout), stamp: stamp, afterFailures: failures)
                }
                return Disposables.create()
            }
        }
        let hop = fetch.answersOnBackground
        let subscription = fetch.attempt { [self] event in
            guard answered.set() else { return }
            // An answer that came while the fetch was being started on the background scheduler
            // is on it already.
            guard hop, !ThreadMark.fetchStart.isCurrent else {
                return handle(event, stamp: stamp, afterFailures: failures)
            }
            // One hop for the one event that counts, where an `observe(on:)` would queue every
            // event the fetch sends.
            _ = scheduler.schedule(()) { [self] _ in
                handle(event, stamp: stamp, afterFailures: failures)
                return Disposables.create()
            }
        }
        step.setDisposable(timer.map { Disposables.create($0, subscription) } ?? subscription)
    }

    private func handle(_ event: AttemptEvent, stamp: Int, afterFailures failures: Int) {
        guard !current.isDisposed else { return }
        switch fetch.outcome(of: event) {
        case .success(let result): succeeded(result, stamp: stamp)
        case .failure(let error): failed(with: error, afterFailures: failures)
        }
    }

    private func succeeded(_ result: FetchResult, stamp: Int) {
        guard !current.isDisposed else { return }
        // The attempt's subscription and timer go; what the success becomes is not cut short.
        current.disposable = Disposables.create()
        fetch.succeeded(result, stamp) { [self] event in send(event) }
    }

    /// The attempt failed for the `failures + 1`th time: give up with `error`, or wait as the
    /// policy says and try again.
    private func failed(with error: any Error, afterFailures failures: Int) {
        let failed = failures + 1
        let teller = fetch.teller
        guard
            let seconds = fetch.policy.delay(afterFailedAttempts: failed, error: error, random: .random(in: 0..<1))
        else {
            current.disposable = Disposables.create()
            send(fetch.failed(error))
            return
        }
        let nanoseconds = Int((seconds * 1_000_000_000).rounded())
        let pending = PendingRetry(
            failedAttempts: failed,
            lastError: error,
            nextAttemptAt: teller.now.addingTimeInterval(seconds)
        )
        let step = SingleAssignmentDisposable()
        current.disposable = step
        if let event = fetch.retrying(.scheduled(pending, delay: .nanoseconds(nanoseconds))) {
            send(event)
        }
        step.setDisposable(
            teller.backgroundScheduler.scheduleRelative((), dueTime: .nanoseconds(nanoseconds)) { [self] _ in
                if let event = fetch.retrying(.started(attempt: failed + 1)) {
                    send(event)
                }
                attempt(afterFailures: failed)
                return Disposables.create()
            }
        )
    }

    func dispose() {
        current.dispose()
    }
}

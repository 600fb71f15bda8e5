import Foundation
import TellerRx

/// A fetch as every page of every repository makes it: on the background scheduler, with the
/// configured timeout, and tried again as the retry policy says. A first page (``FlightWork``)
/// and a next page (``NextPageWork``) differ only in what they do with its outcome, so they hand
/// it the three events they send instead of a mapping over its output: the whole fetch is one
/// operator chain, however it ends.
///
/// It never fails and ends after the event `succeeded` or `failed` makes; disposing it disposes
/// the running attempt or the retry's timer.
struct RetryingFetch<FetchResult: Sendable, FetchError: Error, Event: Sendable>: Sendable {
    let tag: String
    let teller: Teller
    let policy: RetryPolicy
    /// One attempt: the data source's fetch (in the tag's fetch lane, for a first page). It is
    /// subscribed on the background scheduler; it may answer on any thread.
    let attempt: @Sendable () -> Observable<FetchResponse<FetchResult, FetchError>>
    /// What the fetch's result becomes; `stamp` is the ``Teller/invalidationStamp`` noted when
    /// the successful attempt started, so an invalidation that came later is not cleared by it.
    let succeeded: @Sendable (_ result: FetchResult, _ stamp: Int) -> Observable<Event>
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

    func run() -> Observable<Event> {
        attempt(afterFailures: 0)
    }

    private func attempt(afterFailures failures: Int) -> Observable<Event> {
        let fetch = self
        return Observable.deferred {
            let stamp = fetch.teller.invalidationStamp
            return fetch.outcome().concatMap { outcome -> Observable<Event> in
                switch outcome {
                case .success(let result): fetch.succeeded(result, stamp)
                case .failure(let error): fetch.failed(with: error, afterFailures: failures)
                }
            }
        }
    }

    /// The attempt's response, or the error it failed with.
    private func outcome() -> Observable<Result<FetchResult, any Error>> {
        let tag = tag
        let timeoutSeconds = teller.fetchTimeout.map(secondsOf)
        var response = attempt()
        if let timeout = teller.fetchTimeout {
            response = response.timeout(timeout, scheduler: teller.backgroundScheduler)
        }
        return response.take(1)
            .map { response -> Result<FetchResult, any Error> in
                switch response {
                case .success(let result): .success(result)
                case .failure(let error): .failure(error)
                }
            }
            .catch { error in
                let reported: any Error =
                    if case RxError.timeout = error, let timeoutSeconds {
                        TellerError.fetchTimedOut(tag: tag, seconds: timeoutSeconds)
                    } else {
                        error
                    }
                return .just(.failure(reported))
            }
            .ifEmpty(default: .failure(TellerError.fetchProducedNoResponse(tag: tag)))
    }

    /// The attempt failed for the `failures + 1`th time: give up with `error`, or wait as the
    /// policy says and try again.
    private func failed(with error: any Error, afterFailures failures: Int) -> Observable<Event> {
        let failed = failures + 1
        guard let seconds = policy.delay(afterFailedAttempts: failed, error: error, random: .random(in: 0..<1)) else {
            return .just(self.failed(error))
        }
        let nanoseconds = Int((seconds * 1_000_000_000).rounded())
        let pending = PendingRetry(
            failedAttempts: failed,
            lastError: error,
            nextAttemptAt: teller.now.addingTimeInterval(seconds)
        )
        let retrying = retrying
        let next = attempt(afterFailures: failed)
        let wait = Observable<Int>.timer(.nanoseconds(nanoseconds), scheduler: teller.backgroundScheduler)
            .concatMap { _ in
                Self.send(retrying(.started(attempt: failed + 1))).concat(next)
            }
        return Self.send(retrying(.scheduled(pending, delay: .nanoseconds(nanoseconds)))).concat(wait)
    }

    private static func send(_ event: Event?) -> Observable<Event> {
        event.map { .just($0) } ?? .empty()
    }
}

import Foundation
import TellerRx

/// One fetch-and-save for a tag: fetch on the background scheduler (with the configured
/// timeout, and tried again as the retry policy says), then save in the key's write lane and
/// record the fetch time. Every way it can end becomes a single `.finished` event; it never
/// fails and never ends without one, unless its flight was cancelled (nobody listens then): a
/// cancelled flight starts no fetch and saves nothing.
struct FlightWork<DataSource: RepositoryDataSource>: @unchecked Sendable {
    // @unchecked: the data source is only called on the background scheduler, as documented.
    let dataSource: DataSource
    let requirements: DataSource.Requirements
    let teller: Teller
    let context: FlightContext
    /// What a saved result brings beside the data (a paging repository's first page: its paging
    /// progress): `metadata` is stored with the fetch time, `progress` is sent with the flight's
    /// end to every repository that waited for it. `nil` keeps what was stored.
    var saved: (DataSource.FetchResult) -> (metadata: PagingMetadata, progress: any Sendable)? = { _ in nil }

    private typealias Outcome = Result<DataSource.FetchResult, any Error>

    func run() -> Observable<FlightEvent> {
        attempt(afterFailures: 0)
    }

    /// One fetch, saved when it succeeds, and retried when it fails and the policy says so.
    private func attempt(afterFailures failures: Int) -> Observable<FlightEvent> {
        let work = UncheckedSendable(self)
        return Observable.deferred {
            // Noted before the fetch starts: an invalidation that comes later is not cleared by
            // data fetched before it.
            let stamp = work.value.teller.invalidationStamp
            return work.value.fetchOutcome().concatMap { outcome -> Observable<FlightEvent> in
                switch outcome {
                case .success(let result): work.value.save(result, stamp: stamp)
                case .failure(let error): work.value.failed(with: error, afterFailures: failures)
                }
            }
        }
    }

    /// The fetch's response, or the error it failed with: a `.failure` response, a failed or
    /// empty `Single`, a timeout.
    private func fetchOutcome() -> Observable<Outcome> {
        let tag = requirements.tag
        let timeoutSeconds = teller.fetchTimeout.map(secondsOf)
        return fetch()
            .take(1)
            .observe(on: teller.backgroundScheduler)
            .map { response -> Outcome in
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

    /// The fetch failed for the `failures + 1`th time: end the flight with `error`, or wait as the
    /// retry policy says and try again.
    private func failed(with error: any Error, afterFailures failures: Int) -> Observable<FlightEvent> {
        let failed = failures + 1
        let policy = dataSource.retryPolicy ?? teller.retryPolicy
        guard let seconds = policy.delay(afterFailedAttempts: failed, error: error, random: .random(in: 0..<1)) else {
            return .just(.finished(.failedError(error: error)))
        }
        let nanoseconds = Int((seconds * 1_000_000_000).rounded())
        let delay = RxTimeInterval.nanoseconds(nanoseconds)
        let pending = PendingRetry(
            failedAttempts: failed,
            lastError: error,
            nextAttemptAt: teller.now.addingTimeInterval(seconds)
        )
        let next = attempt(afterFailures: failed)
        return Observable.just(.retryScheduled(pending, delay: .nanoseconds(nanoseconds)))
            .concat(
                Observable<Int>.timer(delay, scheduler: teller.backgroundScheduler)
                    .concatMap { _ in Observable.just(FlightEvent.retryStarted(attempt: failed + 1)).concat(next) }
            )
    }

    private func fetch() -> Observable<FetchResponse<DataSource.FetchResult, DataSource.FetchError>> {
        let work = UncheckedSendable(self)
        // One fetch of the tag at a time, and none once the flight was cancelled.
        let fetch = context.fetch(on: teller.backgroundScheduler) {
            work.value.dataSource.fetchFreshCache(requirements: work.value.requirements).asObservable()
        }
        guard let timeout = teller.fetchTimeout else { return fetch }
        return fetch.timeout(timeout, scheduler: teller.backgroundScheduler)
    }

    private func save(_ result: DataSource.FetchResult, stamp: Int) -> Observable<FlightEvent> {
        let work = UncheckedSendable((self, result))
        return context.save {
            work.value.0.saveAndRecord(work.value.1, stamp: stamp)
        }
    }

    private func saveAndRecord(_ result: DataSource.FetchResult, stamp: Int) -> FlightEvent {
        let tag = requirements.tag
        let saved = saved(result)
        do {
            try dataSource.saveCache(result, requirements: requirements)
        } catch {
            teller.log(.saveFailed(tag: tag, error: error))
            if saved != nil { recordEmptiedFirstPage() }
            return .finished(.failedError(error: error))
        }
        let previous = teller.metadataStore.metadata(forTag: tag)
        do {
            try teller.metadataStore.setMetadata(
                FetchMetadata(lastFetched: teller.now, paging: saved?.metadata ?? previous?.paging),
                forTag: tag
            )
        } catch {
            // The store keeps the new time in memory; only durability was lost, and the store
            // has reported it. The save itself succeeded.
            teller.log(.metadataProblem("could not persist the fetch time of \"\(tag)\": \(error)"))
        }
        teller.recordFetched(tag: tag, startedAt: stamp)
        teller.metadataChanged(.tag(tag))
        return .finished(.successful, saved: saved?.progress)
    }

    /// A paging first page is saved right after the old pages were deleted, so a save that
    /// throws leaves no page to page on from: the stored progress must stop saying more pages
    /// exist, or the next requirements change (or relaunch) fetches a next page onto an empty
    /// cache. The fetch time stays, as the repository shows it. Repositories showing the tag
    /// always hear of the change, even when the progress already said so: the pages they show
    /// are gone, and a next page waiting for this save starts on that notice. Only a paging first
    /// page brings `saved` progress.
    private func recordEmptiedFirstPage() {
        let tag = requirements.tag
        defer { teller.metadataChanged(.tag(tag)) }
        guard let previous = teller.metadataStore.metadata(forTag: tag),
            previous.paging != PagingMetadata(areMorePages: false)
        else { return }
        do {
            try teller.metadataStore.setMetadata(
                FetchMetadata(lastFetched: previous.lastFetched, paging: PagingMetadata(areMorePages: false)),
                forTag: tag
            )
        } catch {
            teller.log(.metadataProblem("could not persist the paging progress of \"\(tag)\": \(error)"))
        }
    }
}

/// `interval` in seconds, for ``TellerError/fetchTimedOut(tag:seconds:)``.
func secondsOf(_ interval: RxTimeInterval) -> Double {
    switch interval {
    case .seconds(let value): Double(value)
    case .milliseconds(let value): Double(value) / 1_000
    case .microseconds(let value): Double(value) / 1_000_000
    case .nanoseconds(let value): Double(value) / 1_000_000_000
    default: .infinity
    }
}

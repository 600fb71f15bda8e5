import Foundation
import TellerRx

/// One fetch-and-save for a tag: fetch on the background scheduler (with the configured
/// timeout), then save on the background scheduler and record the fetch time. Every way it can
/// end becomes a single `.finished` event; it never fails and never ends without one.
struct FlightWork<DataSource: RepositoryDataSource>: @unchecked Sendable {
    // @unchecked: the data source is only called on the background scheduler, as documented.
    let dataSource: DataSource
    let requirements: DataSource.Requirements
    let teller: Teller
    /// The paging progress a saved result brings, stored with its fetch time (a paging
    /// repository's first page); `nil` keeps what was stored.
    var pagingMetadata: (DataSource.FetchResult) -> PagingMetadata? = { _ in nil }

    func run() -> Observable<FlightEvent> {
        let tag = requirements.tag
        let timeoutSeconds = teller.fetchTimeout.map(secondsOf)
        return fetch()
            .take(1)
            .observe(on: teller.backgroundScheduler)
            .concatMap { response in save(response) }
            .catch { error in
                let reported: any Error =
                    if case RxError.timeout = error, let timeoutSeconds {
                        TellerError.fetchTimedOut(tag: tag, seconds: timeoutSeconds)
                    } else {
                        error
                    }
                return .just(.finished(.failedError(error: reported)))
            }
            .ifEmptyFinish(with: .finished(.failedError(error: TellerError.fetchProducedNoResponse(tag: tag))))
    }

    private func fetch() -> Observable<FetchResponse<DataSource.FetchResult, DataSource.FetchError>> {
        let work = UncheckedSendable(self)
        let fetch = Observable.deferred {
            work.value.dataSource.fetchFreshCache(requirements: work.value.requirements).asObservable()
        }
        .subscribe(on: teller.backgroundScheduler)
        guard let timeout = teller.fetchTimeout else { return fetch }
        return fetch.timeout(timeout, scheduler: teller.backgroundScheduler)
    }

    private func save(
        _ response: FetchResponse<DataSource.FetchResult, DataSource.FetchError>
    ) -> Observable<FlightEvent> {
        switch response {
        case .failure(let error):
            return .just(.finished(.failedError(error: error)))
        case .success(let result):
            let work = UncheckedSendable(self)
            let result = UncheckedSendable(result)
            return Observable.create { observer in
                observer.onNext(.saving)
                observer.onNext(.finished(work.value.saveAndRecord(result.value)))
                observer.onCompleted()
                return Disposables.create()
            }
        }
    }

    private func saveAndRecord(_ result: DataSource.FetchResult) -> RefreshResult {
        let tag = requirements.tag
        do {
            try dataSource.saveCache(result, requirements: requirements)
        } catch {
            teller.log(.saveFailed(tag: tag, error: error))
            recordEmptiedFirstPage(result)
            return .failedError(error: error)
        }
        let previous = teller.metadataStore.metadata(forTag: tag)
        do {
            try teller.metadataStore.setMetadata(
                FetchMetadata(lastFetched: teller.now, paging: pagingMetadata(result) ?? previous?.paging),
                forTag: tag
            )
        } catch {
            // The store keeps the new time in memory; only durability was lost, and the store
            // has reported it. The save itself succeeded.
            teller.log(.metadataProblem("could not persist the fetch time of \"\(tag)\": \(error)"))
        }
        teller.metadataChanges.onNext(.tag(tag))
        return .successful
    }

    /// A paging first page is saved right after the old pages were deleted, so a save that
    /// throws leaves no page to page on from: the stored progress must stop saying more pages
    /// exist, or the next requirements change (or relaunch) fetches a next page onto an empty
    /// cache. The fetch time stays, as the repository shows it; repositories showing the tag hear
    /// of the change. Only a paging first page has `pagingMetadata`.
    private func recordEmptiedFirstPage(_ result: DataSource.FetchResult) {
        let tag = requirements.tag
        guard pagingMetadata(result) != nil, let previous = teller.metadataStore.metadata(forTag: tag),
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
        teller.metadataChanges.onNext(.tag(tag))
    }
}

extension ObservableType where Element == FlightEvent {
    /// Sends `event` and completes if the source completes without sending anything.
    fileprivate func ifEmptyFinish(with event: FlightEvent) -> Observable<FlightEvent> {
        let source = asObservable()
        return Observable.create { observer in
            let sawElement = LockedState(false)
            return source.subscribe(
                onNext: { element in
                    sawElement.withLock { $0 = true }
                    observer.onNext(element)
                },
                onError: { observer.onError($0) },
                onCompleted: {
                    if !sawElement.withLock({ $0 }) { observer.onNext(event) }
                    observer.onCompleted()
                }
            )
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

import Dispatch
import TellerRx

/// How fetching one next page ended.
enum NextPageOutcome<DataSource: PagingRepositoryDataSource>: @unchecked Sendable {
    // @unchecked: the paging requirements are only read by the repository's state machine,
    // which runs one input at a time; they are documented as immutable.
    /// The page `pagingRequirements` was fetched, built on the first page saved as of `mark`
    /// (``RefreshCoordinator/savedDataMark(_:)``).
    case fetched(DataSource.PagingRequirements, DataSource.FetchResult, mark: Int)
    /// The fetch failed: the data source's `.failure`, a failed `Single`, or a timeout.
    case failed(any Error)
    /// A first page of the tag was being saved (by any repository): the next page did not start,
    /// and waits for the change that save announces.
    case firstPageBeingReplaced
}

/// Fetches one next page on the background scheduler, with the configured timeout: asks the
/// data source for the page's requirements, then fetches it. Every way it can end becomes one
/// ``NextPageOutcome``; it never fails. Saving is the state machine's decision, made later.
///
/// It does not start while a first page of the tag is being saved, by this repository or another
/// one showing the tag: the store holds no page meanwhile.
struct NextPageWork<DataSource: PagingRepositoryDataSource>: @unchecked Sendable {
    // @unchecked: the data source is only called on the background scheduler, as documented.
    let dataSource: DataSource
    let requirements: DataSource.Requirements
    let currentPage: DataSource.PagingRequirements
    let nextPageRequirements: DataSource.NextPageRequirements?
    let teller: Teller
    let key: FlightKey

    func run() -> Observable<NextPageOutcome<DataSource>> {
        let tag = requirements.tag
        let timeout = teller.fetchTimeout
        let work = UncheckedSendable(self)
        var fetch = Observable<NextPageOutcome<DataSource>>.deferred {
            guard let mark = work.value.teller.coordinator.savedDataMark(work.value.key) else {
                return .just(.firstPageBeingReplaced)
            }
            let page = work.value.dataSource.getNextPagePagingRequirements(
                currentPagingRequirements: work.value.currentPage,
                nextPageRequirements: work.value.nextPageRequirements
            )
            let pageBox = UncheckedSendable(page)
            return work.value.dataSource.fetchFreshCache(
                requirements: work.value.requirements,
                pagingRequirements: page
            )
            .asObservable()
            .map { response -> NextPageOutcome<DataSource> in
                switch response {
                case .success(let result): .fetched(pageBox.value, result, mark: mark)
                case .failure(let error): .failed(error)
                }
            }
        }
        .subscribe(on: teller.backgroundScheduler)
        if let timeout {
            fetch = fetch.timeout(timeout, scheduler: teller.backgroundScheduler)
        }
        return fetch.take(1)
            .toArray()
            .map { outcomes -> NextPageOutcome<DataSource> in
                outcomes.first ?? .failed(TellerError.fetchProducedNoResponse(tag: tag))
            }
            .asObservable()
            .catch { error in
                let reported: any Error =
                    if case RxError.timeout = error, let timeout {
                        TellerError.fetchTimedOut(tag: tag, seconds: secondsOf(timeout))
                    } else {
                        error
                    }
                return .just(.failed(reported))
            }
    }
}

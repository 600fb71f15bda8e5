import Dispatch
@_spi(TellerInternals) import TellerRx

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

/// Fetches one next page as ``RetryingFetch`` does (on the background scheduler, with the
/// configured timeout, tried again as the retry policy says: a first page's rules): asks the data
/// source for the page's requirements, then fetches it. Every way it can end becomes one
/// ``NextPageOutcome``; it never fails. A retry is not announced: the page shows as loading until
/// the last attempt ends. Saving is the state machine's decision, made later.
///
/// It does not start while a first page of the tag is being saved, by this repository or another
/// one showing the tag: the store holds no page meanwhile. It runs in the tag's fetch lane, as a
/// first page's fetch does, so no other fetch of the tag runs beside it (its retries included).
struct NextPageWork<DataSource: PagingRepositoryDataSource>: @unchecked Sendable {
    // @unchecked: the data source is only called on the background scheduler, as documented.
    let dataSource: DataSource
    let requirements: DataSource.Requirements
    let currentPage: DataSource.PagingRequirements
    let nextPageRequirements: DataSource.NextPageRequirements?
    let teller: Teller
    let key: FlightKey

    func run() -> Observable<NextPageOutcome<DataSource>> {
        let work = UncheckedSendable(self)
        return Observable.create { observer in
            work.value.teller.coordinator.fetchInLane(
                work.value.key,
                on: work.value.teller.backgroundScheduler,
                {
                    guard let mark = work.value.teller.coordinator.savedDataMark(work.value.key) else {
                        return .just(.firstPageBeingReplaced)
                    }
                    return work.value.fetch(mark: mark)
                },
                events: { observer.on($0) }
            )
        }
    }

    /// The page after the current one, built on the first page saved as of `mark`.
    private func fetch(mark: Int) -> Observable<NextPageOutcome<DataSource>> {
        let page = UncheckedSendable(
            dataSource.getNextPagePagingRequirements(
                currentPagingRequirements: currentPage,
                nextPageRequirements: nextPageRequirements
            )
        )
        let work = UncheckedSendable(self)
        let fetch = RetryingFetch<DataSource.FetchResult, DataSource.FetchError, NextPageOutcome<DataSource>>(
            tag: requirements.tag,
            teller: teller,
            policy: dataSource.retryPolicy ?? teller.retryPolicy,
            attempt: { answer in
                work.value.dataSource.fetchFreshCache(
                    requirements: work.value.requirements,
                    pagingRequirements: page.value
                )
                .asObservable()
                .subscribe { answer($0) }
            },
            answersOnBackground: false,
            succeeded: { result, _, finish in finish(.fetched(page.value, result, mark: mark)) },
            failed: { .failed($0) },
            retrying: { _ in nil }
        )
        return Observable.create { observer in
            // Announcing no retries, a next page's run delivers one event: its outcome.
            fetch.run { outcome in
                observer.onNext(outcome)
                observer.onCompleted()
            }
        }
    }
}

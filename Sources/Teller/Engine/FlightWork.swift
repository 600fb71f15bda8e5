import Foundation
@_spi(TellerInternals) import TellerRx

/// One fetch-and-save for a tag: fetch as ``RetryingFetch`` does, in the tag's fetch lane, then
/// save in the key's write lane and record the fetch time (unless a newer fetch of the tag saved
/// meanwhile: see ``Invalidations``). Every way it can end becomes a single `.finished` event;
/// it never fails and never ends without one, unless its flight was cancelled (nobody listens
/// then): a cancelled flight starts no fetch and saves nothing.
///
/// A class: the closures its run is made of capture it by reference. A struct generic over the
/// app's data source, captured by value, made each closure's copy and release look the
/// struct's metadata up at run time.
final class FlightWork<DataSource: RepositoryDataSource>: @unchecked Sendable {
    // @unchecked: immutable; the data source is only called on the background scheduler, as
    // documented.
    let dataSource: DataSource
    let requirements: DataSource.Requirements
    let teller: Teller
    let context: FlightContext
    /// What a saved result brings beside the data (a paging repository's first page: its paging
    /// progress): `metadata` is stored with the fetch time, `progress` is sent with the flight's
    /// end to every repository that waited for it. `nil` keeps what was stored.
    let saved: (DataSource.FetchResult) -> (metadata: PagingMetadata, progress: Parcel)?

    init(
        dataSource: DataSource,
        requirements: DataSource.Requirements,
        teller: Teller,
        context: FlightContext,
        saved: @escaping (DataSource.FetchResult) -> (metadata: PagingMetadata, progress: Parcel)? = { _ in nil }
    ) {
        self.dataSource = dataSource
        self.requirements = requirements
        self.teller = teller
        self.context = context
        self.saved = saved
    }

    /// Runs the work; `deliver` hears its events (see ``RetryingFetch/run(deliver:)``).
    func run(deliver: @escaping @Sendable (FlightEvent) -> Void) -> any Disposable {
        RetryingFetch(
            tag: requirements.tag,
            teller: teller,
            policy: dataSource.retryPolicy ?? teller.retryPolicy,
            attempt: { [self] answer in fetch(answer) },
            answersOnBackground: true,
            succeeded: { [self] result, stamp, finish in
                context.save({ [self] in saveAndRecord(result, stamp: stamp) }, then: finish)
            },
            failed: { .finished(.failedError(error: $0)) },
            retrying: { notice in
                switch notice {
                case .scheduled(let pending, let delay): .retryScheduled(pending, delay: delay)
                case .started(let attempt): .retryStarted(attempt: attempt)
                }
            }
        )
        .run(deliver: deliver)
    }

    private func fetch(
        _ answer: @escaping @Sendable (Event<FetchResponse<DataSource.FetchResult, DataSource.FetchError>>) -> Void
    ) -> any Disposable {
        // One fetch of the tag at a time, and none once the flight was cancelled.
        context.fetch(
            on: teller.backgroundScheduler,
            { [self] in dataSource.fetchFreshCache(requirements: requirements).asObservable() },
            events: answer
        )
    }

    private func saveAndRecord(_ result: DataSource.FetchResult, stamp: Int) -> FlightEvent {
        let tag = requirements.tag
        // A fetch of the tag by another data-source type, started after a mark this one
        // predates, saved first: writing this older data over it could take a write the server
        // took off the screen for good. The refresh succeeded all the same: what is stored is
        // newer than what it fetched.
        if teller.isSuperseded(tag: tag, startedAt: stamp) { return .finished(.successful) }
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
        teller.metadataChanged(.saved(tag, flight: context.flight))
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

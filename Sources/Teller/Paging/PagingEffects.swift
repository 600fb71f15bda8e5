import Foundation
@_spi(TellerInternals) import TellerRx

/// The I/O of a ``TellerPagingRepository``: its data source's pages, first-page flights, the
/// trim, and next-page fetches and saves, on the Teller's schedulers.
final class PagingEffects<DataSource: PagingRepositoryDataSource>: EngineEffects, @unchecked Sendable {
    // @unchecked: `dataSource` is only called on the Teller's schedulers, as
    // PagingRepositoryDataSource documents; the two work slots are thread-safe.
    typealias Requirements = DataSource.Requirements
    typealias Cache = DataSource.PagingCache
    typealias Shown = PagedCache<DataSource.PagingCache>
    typealias View = DataSource.PagingRequirements
    typealias ExtraInput = PagingInput<DataSource>
    typealias ExtraAction = PagingAction<DataSource>
    typealias Progress = PagingExtension<DataSource>.FirstPageProgress

    let dataSource: DataSource
    let firstPageRequirements: DataSource.PagingRequirements
    let teller: Teller
    /// Set when the data source keeps its pages in a `FileCacheStore` of another `Teller`: then
    /// every cache reading fails with it, so the mistake shows at once instead of after a purge.
    private let storeMismatch: FileCacheStoreError?
    /// The trim and the next-page fetch in progress, cancelled when the machine says so (setting
    /// one disposes the previous), and for good at shut down (anything set later is disposed at
    /// once).
    private let trimWork = SerialDisposable()
    private let nextPageWork = SerialDisposable()

    init(dataSource: DataSource, firstPageRequirements: DataSource.PagingRequirements, teller: Teller) {
        self.dataSource = dataSource
        self.firstPageRequirements = firstPageRequirements
        self.teller = teller
        storeMismatch = cacheStoreMismatch(of: dataSource, teller: teller, scanningProperties: true)
    }

    func makeMachine() -> RepositoryMachine {
        RepositoryMachine(
            configuration: teller.machineConfiguration(of: dataSource),
            extension: PagingExtension<DataSource>(firstPage: firstPageRequirements)
        )
    }

    // MARK: Metadata

    func stored(forTag tag: String) -> StoredFetch? {
        guard let (metadata, isInvalidated) = teller.storedMetadata(tag: tag) else { return nil }
        return StoredFetch(
            lastFetched: metadata.lastFetched,
            extra: progress(metadata.paging, tag: tag).map(Sealed.init),
            isInvalidated: isInvalidated
        )
    }

    /// The paging progress stored with the last first page of `tag`, decoded.
    private func progress(_ paging: PagingMetadata?, tag: String) -> Progress? {
        guard let paging else { return nil }
        guard let data = paging.nextPageRequirements else {
            return Progress(areMorePages: paging.areMorePages)
        }
        do {
            let next = try NextPageRequirementsCoding.decode(data, as: DataSource.NextPageRequirements.self)
            return Progress(areMorePages: paging.areMorePages, nextPageRequirements: next)
        } catch {
            // Stored by another version of the app: page on once a refresh fetched the first page.
            teller.log(.metadataProblem("could not decode the next-page requirements of \"\(tag)\": \(error)"))
            return Progress(areMorePages: false)
        }
    }

    // MARK: Cache and first page

    func observeCache(
        _ requirements: Requirements,
        _ page: DataSource.PagingRequirements
    ) -> Observable<CacheReading<DataSource.PagingCache>> {
        // The data source is only called on the UI scheduler, as PagingRepositoryDataSource documents.
        let call = UncheckedSendable((dataSource, requirements, page))
        return readCache(
            on: teller.uiScheduler,
            failingWith: storeMismatch,
            observe: { call.value.0.observeCache(requirements: call.value.1, pagingRequirements: call.value.2) },
            isEmpty: { call.value.0.isCacheEmpty($0, requirements: call.value.1, pagingRequirements: call.value.2) }
        )
    }

    func flightKey(for requirements: Requirements) -> FlightKey {
        FlightKey(DataSource.self, tag: requirements.tag)
    }

    func flightWork(
        for requirements: Requirements,
        context: FlightContext,
        deliver: @escaping @Sendable (FlightEvent) -> Void
    ) -> any Disposable {
        FlightWork(
            dataSource: FirstPageDataSource(paged: dataSource, firstPage: firstPageRequirements),
            requirements: requirements,
            teller: teller,
            context: context,
            saved: { page in
                let progress = Progress(
                    areMorePages: page.areMorePages,
                    nextPageRequirements: page.nextPageRequirements
                )
                return (page.pagingMetadata, Sealed(progress))
            }
        )
        .run(deliver: deliver)
    }

    func applyPendingWrites(to state: CacheState<Shown>) -> CacheState<Shown> {
        state.applyingPendingWrites { paged, requirements in
            let typed = typedRequirements(requirements, as: Requirements.self)
            // An empty list is asked too: a write may add the first item to it. It pages on
            // from nothing, so it shows no more pages.
            let applied = dataSource.applyPendingWrites(state.shownWrites, to: paged?.cache, requirements: typed)
            return applied.map {
                PagedCache(
                    areMorePages: paged?.areMorePages ?? false,
                    cache: $0,
                    isLoadingNextPage: paged?.isLoadingNextPage ?? false,
                    nextPageError: paged?.nextPageError
                )
            }
        }
    }

    // MARK: Paging actions

    func perform(_ action: PagingAction<DataSource>, engine: RepositoryEngine<PagingEffects>) {
        switch action {
        case .trimCache(let requirements, let session):
            trimWork.disposable = trim(requirements, session: session, engine: engine)
        case .endSession:
            trimWork.disposable = Disposables.create()
            nextPageWork.disposable = Disposables.create()
        case .fetchNextPage(let id, let requirements, let current, let next):
            nextPageWork.disposable = fetchNextPage(id: id, requirements, current: current, next: next, engine: engine)
        case .cancelNextPage:
            nextPageWork.disposable = Disposables.create()
        case .saveNextPage(let id, let requirements, let page, let response, let mark):
            saveNextPage(id: id, requirements, page, response, mark: mark, engine: engine)
        }
    }

    func shutDown() {
        trimWork.dispose()
        nextPageWork.dispose()
    }

    private func trim(
        _ requirements: Requirements,
        session: Int,
        engine: RepositoryEngine<PagingEffects>
    ) -> any Disposable {
        let dataSource = UncheckedSendable(dataSource)
        let requirements = UncheckedSendable(requirements)
        return teller.backgroundScheduler.schedule(()) { [self] _ in
            runWrite(requirements.value, if: { $0.isTrimming(session: session) }, engine: engine) {
                dataSource.value.persistOnlyFirstPage(requirements: requirements.value)
                engine.send(extra: .trimmed(session: session))
            }
            return Disposables.create()
        }
    }

    /// Runs `body` in the tag's write lane (shared with first-page saves and with every other
    /// repository of the Teller paging the same list), if the machine still wants it when its
    /// turn comes (`wanted`, asked of the machine's paging state): a write of a session that
    /// ended meanwhile, or of a page the machine gave up, is dropped, and needs no answer.
    private func runWrite(
        _ requirements: Requirements,
        if wanted: @escaping (PagingExtension<DataSource>) -> Bool,
        engine: RepositoryEngine<PagingEffects>,
        _ body: @escaping () -> Void
    ) {
        let work = UncheckedSendable((wanted, body))
        teller.coordinator.write(flightKey(for: requirements)) {
            guard engine.read({ $0.paging(of: DataSource.self).map(work.value.0) }) == true else { return }
            work.value.1()
        }
    }

    private func fetchNextPage(
        id: Int,
        _ requirements: Requirements,
        current: DataSource.PagingRequirements,
        next: DataSource.NextPageRequirements?,
        engine: RepositoryEngine<PagingEffects>
    ) -> any Disposable {
        NextPageWork(
            dataSource: dataSource,
            requirements: requirements,
            currentPage: current,
            nextPageRequirements: next,
            teller: teller,
            key: flightKey(for: requirements)
        )
        .run()
        .subscribe(onNext: { outcome in engine.send(extra: .nextPageFetched(id: id, outcome)) })
    }

    /// Saves on the background scheduler. Not cancellable once scheduled: a write is never cut
    /// short, and the machine ignores the answer if it no longer wants it. Dropped unsaved when a
    /// first page of the tag was saved since the page was fetched (`mark`): it would follow a
    /// page that is not there any more.
    private func saveNextPage(
        id: Int,
        _ requirements: Requirements,
        _ page: DataSource.PagingRequirements,
        _ response: DataSource.FetchResult,
        mark: Int,
        engine: RepositoryEngine<PagingEffects>
    ) {
        let key = flightKey(for: requirements)
        let coordinator = teller.coordinator
        let dataSource = UncheckedSendable(dataSource)
        let arguments = UncheckedSendable((requirements, page, response.fetchResponse))
        _ = teller.backgroundScheduler.schedule(()) { [self] _ in
            let (requirements, page, fetched) = arguments.value
            runWrite(requirements, if: { $0.isSaving(nextPage: id) }, engine: engine) {
                guard coordinator.isUnchanged(key, since: mark) else {
                    engine.send(extra: .nextPageDropped(id: id))
                    return
                }
                do {
                    try dataSource.value.saveCache(fetched, requirements: requirements, pagingRequirements: page)
                    engine.send(extra: .nextPageSaved(id: id, error: nil))
                } catch {
                    engine.send(extra: .nextPageSaved(id: id, error: error))
                }
            }
            return Disposables.create()
        }
    }
}

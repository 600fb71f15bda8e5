import Foundation
@_spi(TellerInternals) import TellerRx

/// The I/O of a ``TellerRepository``: its data source's cache and fetch, on the Teller's
/// schedulers.
final class RepositoryEffects<DataSource: RepositoryDataSource>: EngineEffects, @unchecked Sendable {
    // @unchecked: `dataSource` is only called on the Teller's schedulers, as RepositoryDataSource
    // documents; nothing here is mutable.
    typealias Requirements = DataSource.Requirements
    typealias Cache = DataSource.Cache
    typealias Shown = DataSource.Cache
    typealias View = Void
    typealias ExtraInput = Never
    typealias ExtraAction = Never

    let dataSource: DataSource
    let teller: Teller
    /// Set when the data source keeps its cache in a `FileCacheStore` of another `Teller`: then
    /// every cache reading fails with it, so the mistake shows at once instead of after a purge.
    private let storeMismatch: FileCacheStoreError?

    init(dataSource: DataSource, teller: Teller) {
        self.dataSource = dataSource
        self.teller = teller
        storeMismatch = cacheStoreMismatch(of: dataSource, teller: teller, scanningProperties: false)
    }

    func makeMachine() -> RepositoryMachine {
        RepositoryMachine(configuration: teller.machineConfiguration(of: dataSource))
    }

    func stored(forTag tag: String) -> StoredFetch? {
        teller.storedMetadata(tag: tag).map {
            StoredFetch(lastFetched: $0.metadata.lastFetched, isInvalidated: $0.isInvalidated)
        }
    }

    func observeCache(
        _ requirements: DataSource.Requirements,
        _ view: Void
    ) -> Observable<CacheReading<DataSource.Cache>> {
        // The data source is only called on the UI scheduler, as RepositoryDataSource documents.
        let call = UncheckedSendable((dataSource, requirements))
        return readCache(
            on: teller.uiScheduler,
            failingWith: storeMismatch,
            observe: { call.value.0.observeCache(requirements: call.value.1) },
            isEmpty: { call.value.0.isCacheEmpty($0, requirements: call.value.1) }
        )
    }

    func flightKey(for requirements: DataSource.Requirements) -> FlightKey {
        FlightKey(DataSource.self, tag: requirements.tag)
    }

    func flightWork(
        for requirements: DataSource.Requirements,
        context: FlightContext,
        deliver: @escaping @Sendable (FlightEvent) -> Void
    ) -> any Disposable {
        FlightWork(dataSource: dataSource, requirements: requirements, teller: teller, context: context)
            .run(deliver: deliver)
    }

    func perform(_ action: Never, engine: RepositoryEngine<RepositoryEffects>) {}

    func applyPendingWrites(to state: CacheState<DataSource.Cache>) -> CacheState<DataSource.Cache> {
        state.applyingPendingWrites { cache, requirements in
            let typed = typedRequirements(requirements, as: DataSource.Requirements.self)
            return dataSource.applyPendingWrites(state.shownWrites, to: cache, requirements: typed)
        }
    }

    func shutDown() {}
}

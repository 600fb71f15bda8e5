import Foundation

/// The error a repository on `teller` reports when `dataSource` keeps its cache in a
/// ``FileCacheStore`` made with another `Teller`; `nil` otherwise. Evictions and missing files
/// would forget fetch times in the store's `Teller`, not the repository's, so the repository
/// would show a cache that is gone (or be stuck at a read error) instead of fetching again.
///
/// The stores looked at: a ``CodableRepositoryDataSource``'s `cacheStore`, and, for a paging data
/// source (`scanningProperties`), every store held in a stored property of the data source
/// itself, as it keeps its pages (``PagingRepositoryDataSource`` has no property for it; a plain
/// data source with a store is a `CodableRepositoryDataSource`, and reflection costs every
/// repository's creation). A store reached only through another object is not found. Called
/// once per repository, when it is created.
/// A mismatch is logged as ``TellerLogEvent/invalidConfiguration(_:)`` here, and every cache
/// reading of the repository fails with it (``readCache(on:failingWith:observe:isEmpty:)``).
func cacheStoreMismatch(
    of dataSource: some TellerDataSource,
    teller: Teller,
    scanningProperties: Bool
) -> FileCacheStoreError? {
    let mismatch = cacheStores(of: dataSource, scanningProperties: scanningProperties).first { $0.teller !== teller }
        .map {
            FileCacheStoreError.differentTeller(path: $0.directory.path)
        }
    if let mismatch {
        teller.log(.invalidConfiguration(mismatch.description))
    }
    return mismatch
}

/// What a repository checks of a ``FileCacheStore``, whatever its `Value`.
private protocol TellerBoundStore {
    var teller: Teller { get }
    var directory: URL { get }
}

extension FileCacheStore: TellerBoundStore {}

private func cacheStores(of dataSource: some TellerDataSource, scanningProperties: Bool) -> [any TellerBoundStore] {
    var stores: [any TellerBoundStore] = []
    if let codable = dataSource as? any CodableRepositoryDataSource {
        stores.append(codable.boundStore)
    }
    guard scanningProperties else { return stores }
    // The data source's stored properties, its superclasses' included.
    var mirror: Mirror? = Mirror(reflecting: dataSource)
    while let current = mirror {
        stores += current.children.compactMap { $0.value as? any TellerBoundStore }
        mirror = current.superclassMirror
    }
    return stores
}

extension CodableRepositoryDataSource {
    /// ``cacheStore`` without its `Value` type (it may be a computed property).
    fileprivate var boundStore: any TellerBoundStore {
        cacheStore
    }
}

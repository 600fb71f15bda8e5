import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

extension TellerPagingRepository {
    /// Puts a real paging repository into a known state before an integration test: no cache,
    /// an empty cache, or a cached first page, of any age, with or without more pages.
    ///
    /// ```swift
    /// TellerPagingRepository.testing.initState(repository: repository, requirements: requirements) {
    ///     $0.cache(firstPageOfRepos, areMorePages: true) {
    ///         $0.cacheTooOld()
    ///     }
    /// }
    /// // Script the data source, then let the code under test run:
    /// repository.requirements = requirements
    /// ```
    public static var testing: TellerPagingRepositoryTesting<DataSource> {
        TellerPagingRepositoryTesting()
    }
}

/// The `TellerPagingRepository.testing` helpers: the paging counterpart of
/// ``TellerRepositoryTesting``, described with the same ``RepositoryStateDsl``.
///
/// Each helper writes the state a relaunched app would find after the first page was last
/// fetched: for a cache, it deletes the old cache (`deleteCache`) and saves the first page
/// (`saveCache` with the repository's `firstPageRequirements`), as the repository does after a
/// fetch; for an empty cache, it only deletes. It then writes the tag's fetch metadata with the
/// first page's paging progress (`areMorePages` and its next-page requirements, stored as Teller
/// stores them, so `goToNextPage()` pages on from the cached first page), and computes ages from
/// the repository's clock (`Teller.now`). As with Teller-iOS's `initState`, it does not set the
/// repository's `requirements` and starts no fetch: it leaves the repository as an app
/// relaunched in that state finds it before the app's code runs.
///
/// Once the test (or the code under test) sets `requirements`, the repository starts as a
/// relaunched app does: it trims the cache to its first page and — with automatic refresh —
/// fetches the first page again, whatever its age. The age decides what happens afterwards
/// (`refresh(force: false)`, and automatic refreshes while the first page alone is shown);
/// without automatic refresh, nothing is fetched until asked.
///
/// Call it before `requirements` are set: a repository that already shows the tag (this one or
/// another) does not notice the change until its requirements are set again. Between tests,
/// `Teller.clear()` forgets every tag's metadata.
public struct TellerPagingRepositoryTesting<DataSource: PagingRepositoryDataSource>: Sendable {
    init() {}

    /// Sets up `repository` for `requirements` as `more` describes, deleting and saving the
    /// cache on the calling thread. Without `more` the repository has no cache. Set the
    /// repository's `requirements` afterwards; nothing runs until then.
    ///
    /// If the data source's `saveCache` throws, a warning is printed, no metadata is written
    /// (the repository has no cache), and the error is in the result's
    /// ``InitStateResult/saveError``. Use ``initStateAsync(repository:requirements:more:)`` to
    /// receive it as an error, or when the data source must run on the background scheduler.
    ///
    /// - Parameters:
    ///   - repository: The repository to set up; its `requirements` are left as they are.
    ///   - requirements: The requirements whose state is set.
    ///   - more: Describes the state; see ``RepositoryStateDsl`` and
    ///     ``RepositoryStateDsl/cache(_:areMorePages:nextPageRequirements:more:)``.
    /// - Returns: The fetch time written, if any.
    @discardableResult
    public func initState(
        repository: TellerPagingRepository<DataSource>,
        requirements: DataSource.Requirements,
        more: (inout RepositoryStateDsl<DataSource.FetchResult>) -> Void = { _ in }
    ) -> InitStateResult {
        let state = PagingInitialState<DataSource>(dsl: InitStateSteps.describe(more))
        return InitStateSteps.run(cacheName: "first page", tag: requirements.tag) {
            state.apply(to: repository, requirements: requirements)
        }
    }

    /// Sets up `repository` for `requirements` as `more` describes, calling the data source on
    /// the repository's `Teller.backgroundScheduler`. Nothing happens until the returned
    /// `Single` is subscribed; it succeeds, on the background scheduler, once the state is
    /// written. Set the repository's `requirements` after that.
    ///
    /// - Parameters:
    ///   - repository: The repository to set up; its `requirements` are left as they are.
    ///   - requirements: The requirements whose state is set.
    ///   - more: Describes the state; see ``RepositoryStateDsl``. Runs at once, on the calling
    ///     thread.
    /// - Returns: A `Single` with the fetch time written. It fails with the data source's error
    ///   if `saveCache` throws; no metadata is written then.
    public func initStateAsync(
        repository: TellerPagingRepository<DataSource>,
        requirements: DataSource.Requirements,
        more: (inout RepositoryStateDsl<DataSource.FetchResult>) -> Void = { _ in }
    ) -> Single<InitStateResult> {
        let state = PagingInitialState<DataSource>(dsl: InitStateSteps.describe(more))
        return InitStateSteps.runAsync(
            on: repository.teller.backgroundScheduler,
            write: UncheckedSendable { state.apply(to: repository, requirements: requirements) }
        )
    }
}

extension RepositoryStateDsl {
    /// The first page was fetched successfully and `firstPage` was saved, as a fetch that
    /// answered `PagedFetchResponse(areMorePages:nextPageRequirements:fetchResponse: firstPage)`
    /// would have left it. Shorthand for `cache(_:more:)` with that response.
    ///
    /// - Parameters:
    ///   - firstPage: The first page's data, handed to the data source's `saveCache`.
    ///   - areMorePages: Whether more pages exist after it, so `goToNextPage()` fetches one.
    ///   - nextPageRequirements: What the first page's fetch returned for the next one, if
    ///     anything; the data source's `getNextPagePagingRequirements` receives it.
    ///   - more: Says how old the cache is; not too old by default.
    public mutating func cache<Page, Next>(
        _ firstPage: Page,
        areMorePages: Bool,
        nextPageRequirements: Next? = nil,
        more: (inout CacheAgeDsl) -> Void = { _ in }
    ) where FetchResult == PagedFetchResponse<Page, Next> {
        cache(
            PagedFetchResponse(
                areMorePages: areMorePages,
                nextPageRequirements: nextPageRequirements,
                fetchResponse: firstPage
            ),
            more: more
        )
    }
}

/// A described paging state, ready to be written.
private struct PagingInitialState<DataSource: PagingRepositoryDataSource> {
    let dsl: RepositoryStateDsl<DataSource.FetchResult>

    func apply(
        to repository: TellerPagingRepository<DataSource>,
        requirements: DataSource.Requirements
    ) -> InitStateResult {
        let dataSource = repository.dataSource
        let tag = requirements.tag
        var metadata: FetchMetadata?
        var result = InitStateResult(lastFetched: nil)
        switch dsl.existence {
        case .noCache:
            break
        case .cacheEmpty:
            dataSource.deleteCache(requirements)
            let fetched = lastFetched(repository)
            metadata = FetchMetadata(lastFetched: fetched, paging: PagingMetadata(areMorePages: false))
            result = InitStateResult(lastFetched: fetched)
        case .cache(let firstPage):
            // As the repository saves a first page: the old pages go first.
            dataSource.deleteCache(requirements)
            do {
                try dataSource.saveCache(
                    firstPage.fetchResponse,
                    requirements: requirements,
                    pagingRequirements: repository.firstPageRequirements
                )
                let fetched = lastFetched(repository)
                metadata = FetchMetadata(lastFetched: fetched, paging: pagingMetadata(of: firstPage))
                result = InitStateResult(lastFetched: fetched)
            } catch {
                result = InitStateResult(lastFetched: nil, saveError: error)
            }
        }
        do {
            try repository.teller.metadataStore.setMetadata(metadata, forTag: tag)
        } catch {
            // The store keeps the value in memory for this process, which is all a test needs.
            printWarning("TellerTesting: the fetch metadata for \"\(tag)\" is not durable: \(error)")
        }
        return result
    }

    private func lastFetched(_ repository: TellerPagingRepository<DataSource>) -> Date {
        dsl.age.lastFetched(now: repository.teller.now, maxAgeOfCache: repository.dataSource.maxAgeOfCache)
    }
}

/// The paging progress Teller stores for a first page, following `PagingMetadata`'s documented
/// format: next-page requirements as JSON when they are `Encodable`, a placeholder for `Void`
/// (Teller reads nothing from it), and "no more pages" for any other type, which cannot be
/// read back after a relaunch.
private func pagingMetadata<Page, Next>(of firstPage: PagedFetchResponse<Page, Next>) -> PagingMetadata {
    guard let next = firstPage.nextPageRequirements else {
        return PagingMetadata(areMorePages: firstPage.areMorePages)
    }
    if Next.self == Void.self {
        return PagingMetadata(areMorePages: firstPage.areMorePages, nextPageRequirements: Data("[]".utf8))
    }
    guard let encodable = next as? any Encodable, let data = try? JSONEncoder().encode(encodable) else {
        return PagingMetadata(areMorePages: false)
    }
    return PagingMetadata(areMorePages: firstPage.areMorePages, nextPageRequirements: data)
}

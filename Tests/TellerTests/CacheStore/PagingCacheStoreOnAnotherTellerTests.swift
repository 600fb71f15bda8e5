import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A paging repository whose data source keeps its pages in a `FileCacheStore` made with
/// another `Teller` says so at once, as a plain repository does: evictions and missing files
/// would otherwise forget fetch times in the store's `Teller`, and the repository would keep
/// showing pages that are gone.
@Suite struct PagingCacheStoreOnAnotherTellerTests {
    typealias Repository = TellerPagingRepository<FileCachePagedDataSource>

    let env = VirtualTeller()
    let folder = TemporaryFolder()
    let octocat = TestRequirements(username: "octocat")

    /// A repository on `env` over `dataSource`, showing octocat from virtual time 100 on, and
    /// the states it sends.
    private func showOctocat(
        _ dataSource: FileCachePagedDataSource
    ) -> (Repository, TestableObserver<CacheState<Repository.Cache>>) {
        let repository = Repository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )
        let states = env.scheduler.createObserver(CacheState<Repository.Cache>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        return (repository, states)
    }

    /// Records octocat's first page as fetched at virtual time 0, with more pages to come.
    private func markFetched() {
        let paging = PagingMetadata(areMorePages: true)
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(0), paging: paging), forTag: octocat.tag)
    }

    @Test func aPagingRepositoryOnAnotherTellerThanItsStoreLogsItWhenCreatedAndShowsTheErrorInsteadOfPages() throws {
        defer { folder.remove() }
        let other = VirtualTeller()
        let store = try FileCacheStore<[[String]]>(directory: folder.url, teller: other.teller)
        try store.save([["a"]], tag: octocat.tag)
        markFetched()
        // No automatic refresh: a paging repository fetches its first page whenever it is shown.
        let dataSource = FileCachePagedDataSource(store: store, automaticallyRefresh: false)
        let expected = FileCacheStoreError.differentTeller(path: folder.url.path)

        let (repository, states) = showOctocat(dataSource)
        #expect(env.log.value == [expected.description])

        withExtendedLifetime(repository) { env.scheduler.start() }
        let last = try #require(states.events.last?.value.element)
        #expect(last.cacheReadError as? FileCacheStoreError == expected, "\(last)")
        #expect(last.cache == nil)
        #expect(dataSource.fetchCount == 0)
    }

    @Test func aPagingRepositoryOnItsStoresTellerShowsItsPages() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[[String]]>(directory: folder.url, teller: env.teller)
        try store.save([["a"]], tag: octocat.tag)
        markFetched()

        let (repository, states) = showOctocat(FileCachePagedDataSource(store: store, automaticallyRefresh: false))
        withExtendedLifetime(repository) { env.scheduler.start() }
        let last = try #require(states.events.last?.value.element)
        #expect(last.cache?.cache == ["a"], "\(last)")
        #expect(last.cacheReadError == nil)
        #expect(env.log.value.isEmpty)
    }
}

import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Lifecycle defects of paging repositories found through the public API, each pinned: a save
/// that always fails, requirements set to nil, a store that emits only on change, writes of an
/// ended session, and `areMorePagesAvailable`.
@Suite struct PagingLifecycleTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    @Test func aFirstPageSaveThatAlwaysFailsDoesNotStartFetchesOnItsOwn() {
        let dataSource = PageNumberDataSource()
        dataSource.write(["a", "b"], for: octocat)
        env.markFetched(octocat, at: -10_000, paging: PagingMetadata(areMorePages: true))
        dataSource.respond(with: env.pageNumberServer([["x", "y"], ["z"]]))
        dataSource.failSaves(with: TestError(1))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        withExtendedLifetime(repository) { env.scheduler.advanceTo(20_000) }
        // The one fetch every new requirements make, and none after its save failed.
        #expect(dataSource.fetches == ["fetch page 1"])
        #expect(states.events.last?.value.element?.isRefreshing == false)
    }

    @Test func afterRequirementsAreSetToNilANewObserverSeesNothingOfThePreviousOnes() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let (repository, _) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        let late = env.scheduler.createObserver(CacheState<PagedCache<[String]>>.self)
        env.scheduler.scheduleAt(200) { repository.requirements = nil }
        env.scheduler.scheduleAt(300) { _ = repository.observe().subscribe(late) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(late.events.isEmpty)
        #expect(!repository.areMorePagesAvailable)
    }

    @Test func aStoreThatEmitsOnlyOnChangeDoesNotLeaveTheNextPageLoading() {
        let dataSource = ChangesOnlyAfterFirstSubscription()
        dataSource.store.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"], ["e"]]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200, 300)
        withExtendedLifetime(repository) { env.scheduler.start() }
        // Page 2 ended its loading although its new observation emitted nothing, so page 3 loaded.
        #expect(dataSource.store.fetches == ["fetch page 1", "fetch page 2", "fetch page 3"])
        #expect(states.events.last?.value.element?.cache?.isLoadingNextPage == false)
        #expect(env.log.value.contains { $0.contains("emitted nothing when subscribed") })
    }

    @Test func areMorePagesAvailableFollowsThePagesShown() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let (repository, _) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        let seen = Locked<[Bool]>([])
        env.scheduler.scheduleAt(150) { seen.withLock { $0.append(repository.areMorePagesAvailable) } }
        env.goToNextPage(repository, at: 200)
        env.scheduler.scheduleAt(300) { seen.withLock { $0.append(repository.areMorePagesAvailable) } }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(seen.value == [true, false])
    }

    /// Real threads: the next-page save blocks until the test lets it go, while the new
    /// session's trim is scheduled on the concurrent background scheduler.
    @Test func aNextPageSaveStillRunningWhenRequirementsAreSetAgainDoesNotOverlapTheNewSessionsTrim() throws {
        let dataSource = PageNumberDataSource()
        dataSource.respond { page in
            .just(
                .success(
                    PagedFetchResponse(
                        areMorePages: page.number < 3,
                        nextPageRequirements: (),
                        fetchResponse: page.number == 1 ? ["a", "b"] : ["c", "d"]
                    )
                )
            )
        }
        let repository = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: makeRealTeller()
        )
        repository.requirements = octocat
        #expect(try repository.refreshIfNoCache().toBlocking(timeout: 30).first() == .successful)

        let watch = OverlapWatch()
        dataSource.onWrite = { entering in watch.write(entering: entering) }
        watch.holdNextWrite()
        repository.goToNextPage()
        #expect(watch.held.wait(timeout: .now() + 30) == .success)
        repository.requirements = octocat
        // A trim running beside the held save shows here; with the write lane it cannot start.
        _ = watch.overlapped.wait(timeout: .now() + 1)
        watch.release.signal()
        // The held save, the new session's trim, then its first page: deleteCache and saveCache.
        for _ in 1...4 {
            #expect(watch.writeEnded.wait(timeout: .now() + 30) == .success)
        }
        #expect(watch.maximum == 1)
        let writes = dataSource.log.filter { $0 == "trim" || $0 == "delete" || $0.hasPrefix("save") }
        #expect(writes.suffix(4) == ["save page 2", "trim", "delete", "save page 1"])
        #expect(dataSource.cache(for: octocat) == ["a", "b"])
    }
}

/// Counts a data source's writes running at once, and can hold one write until released.
private final class OverlapWatch: Sendable {
    private struct State {
        var running = 0
        var maximum = 0
        var holdNext = false
    }

    private let state = Locked(State())
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let overlapped = DispatchSemaphore(value: 0)
    /// Signalled at the end of every write after ``holdNextWrite()``.
    let writeEnded = DispatchSemaphore(value: 0)

    var maximum: Int { state.value.maximum }

    func holdNextWrite() {
        state.withLock { $0.holdNext = true }
    }

    func write(entering: Bool) {
        if entering {
            let (running, hold) = state.withLock { state -> (Int, Bool) in
                state.running += 1
                state.maximum = max(state.maximum, state.running)
                defer { state.holdNext = false }
                return (state.running, state.holdNext)
            }
            if running > 1 { overlapped.signal() }
            if hold {
                held.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        } else {
            state.withLock { $0.running -= 1 }
            writeEnded.signal()
        }
    }
}

/// A paging data source over `store` whose observation emits the current value on the first
/// subscription only; later subscriptions emit only when the data changes (as a
/// change-notification store would).
private final class ChangesOnlyAfterFirstSubscription: PagingRepositoryDataSource, @unchecked Sendable {
    // @unchecked: `store` and `subscriptions` are thread-safe.
    typealias PagingCache = [String]
    typealias Requirements = TestRequirements
    typealias PagingRequirements = PageNumber
    typealias NextPageRequirements = Void
    typealias PagingFetchResult = [String]
    typealias FetchError = any Error

    let store = PageNumberDataSource()
    private let subscriptions = Locked(0)
    var maxAgeOfCache: Period { store.maxAgeOfCache }

    func getNextPagePagingRequirements(currentPagingRequirements: PageNumber, nextPageRequirements: Void?) -> PageNumber
    {
        store.getNextPagePagingRequirements(
            currentPagingRequirements: currentPagingRequirements,
            nextPageRequirements: nextPageRequirements
        )
    }

    func persistOnlyFirstPage(requirements: TestRequirements) {
        store.persistOnlyFirstPage(requirements: requirements)
    }

    func deleteCache(_ requirements: TestRequirements) {
        store.deleteCache(requirements)
    }

    func fetchFreshCache(
        requirements: TestRequirements,
        pagingRequirements: PageNumber
    ) -> Single<FetchResponse<PagedFetchResponse<[String], Void>, any Error>> {
        store.fetchFreshCache(requirements: requirements, pagingRequirements: pagingRequirements)
    }

    func saveCache(_ cache: [String], requirements: TestRequirements, pagingRequirements: PageNumber) throws {
        try store.saveCache(cache, requirements: requirements, pagingRequirements: pagingRequirements)
    }

    func observeCache(requirements: TestRequirements, pagingRequirements: PageNumber) -> Observable<[String]> {
        let isFirst = subscriptions.withLock { count -> Bool in
            count += 1
            return count == 1
        }
        let cache = store.observeCache(requirements: requirements, pagingRequirements: pagingRequirements)
        return isFirst ? cache : cache.skip(1)
    }

    func isCacheEmpty(_ cache: [String], requirements: TestRequirements, pagingRequirements: PageNumber) -> Bool {
        cache.isEmpty
    }
}

import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `TellerPagingRepository.testing.initState` / `initStateAsync` on virtual time: what they
/// write, through which data source members, and how a real paging repository starts from it
/// once the test sets its requirements (the helpers leave them alone, as Teller-iOS's did).
@Suite struct TellerPagingRepositoryTestingTests {
    typealias State = CacheState<PagedCache<[String]>>

    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    init() {
        // Start late enough that "an hour ago" is after the epoch.
        env.scheduler.advanceTo(100_000)
    }

    private func metadata() -> FetchMetadata? {
        env.store.metadata(forTag: octocat.tag)
    }

    private func repository<Paging, Next>(
        _ dataSource: InMemoryPagedDataSource<Paging, Next>,
        firstPage: Paging
    ) -> TellerPagingRepository<InMemoryPagedDataSource<Paging, Next>> {
        TellerPagingRepository(dataSource: dataSource, firstPageRequirements: firstPage, teller: env.teller)
    }

    /// Observes `repository` now, lets `script` schedule more, and runs the scheduler to the end.
    private func run<DataSource: PagingRepositoryDataSource>(
        _ repository: TellerPagingRepository<DataSource>,
        script: () -> Void = {}
    ) -> TestableObserver<State> where DataSource.PagingCache == [String] {
        let states = env.scheduler.createObserver(State.self)
        let subscription = repository.observe().subscribe(states)
        script()
        withExtendedLifetime(repository) { env.scheduler.start() }
        subscription.dispose()
        return states
    }

    // MARK: noCache

    @Test func noCacheForgetsTheTagAndTheRepositoryFetchesItsFirstPage() {
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(50)), forTag: octocat.tag)
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))

        let result = TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.noCache()
        }

        #expect(result == InitStateResult(lastFetched: nil))
        #expect(metadata() == nil)
        repository.requirements = octocat
        let states = run(repository)
        #expect(states.timeline.first == "100001: noCache, firstFetch")
        // initState itself touched no cache: the first call is the repository's fetch.
        #expect(dataSource.log.first == "fetch page 1")
    }

    @Test func withoutADescriptionTheRepositoryHasNoCache() {
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(50)), forTag: octocat.tag)
        let repository = repository(PageNumberDataSource(automaticallyRefresh: false), firstPage: PageNumber(number: 1))
        let result = TellerPagingRepository.testing.initState(repository: repository, requirements: octocat)
        #expect(result.lastFetched == nil)
        #expect(metadata() == nil)
        repository.requirements = octocat
        #expect(run(repository).timeline == ["100001: noCache"])
    }

    // MARK: cache(_:areMorePages:nextPageRequirements:)

    @Test func aCachedFirstPageIsSavedAfterADeleteAndShownWithItsPaging() {
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        dataSource.write(["stale 1", "stale 2", "stale 3"], for: octocat)
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"], ["e"]]))
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))

        let result = TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["a", "b"], areMorePages: true)
        }

        #expect(result == InitStateResult(lastFetched: env.date(100_000)))
        #expect(Array(dataSource.log.prefix(2)) == ["delete", "save page 1"])
        #expect(dataSource.cache(for: octocat) == ["a", "b"])
        #expect(metadata() == FetchMetadata(lastFetched: env.date(100_000), paging: PagingMetadata(areMorePages: true)))
        repository.requirements = octocat
        let states = run(repository) { env.scheduler.scheduleAt(100_100) { repository.goToNextPage() } }
        #expect(
            states.timeline == [
                "100001: cache unread age 100000",
                "100003: cache [\"a\", \"b\"] age 100000, more",
                "100101: cache [\"a\", \"b\"] age 100000, more, loadingNextPage",
                "100114: cache [\"a\", \"b\", \"c\", \"d\"] age 100000, more",
            ]
        )
        // What the repository shows is what the paged builder builds.
        let shown = State.testing.pagedCache(requirements: octocat, lastTimeFetched: env.date(100_000)) {
            $0.cache(["a", "b"])
            $0.morePages()
        }
        #expect(states.states[1] == shown)
        #expect(dataSource.fetches == ["fetch page 2"])
    }

    @Test func aFirstPageWithoutMorePagesDoesNotPageOn() {
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))
        TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["a", "b"], areMorePages: false)
        }
        repository.requirements = octocat
        let states = run(repository) { env.scheduler.scheduleAt(100_100) { repository.goToNextPage() } }
        #expect(states.timeline.last == "100003: cache [\"a\", \"b\"] age 100000")
        #expect(dataSource.fetches.isEmpty)
    }

    @Test func theStoredCursorIsWhatTheNextPageIsBuiltFrom() {
        let dataSource = CursorDataSource(automaticallyRefresh: false)
        dataSource.respond(with: env.cursorServer(["a", "b", "c", "d", "e"]))
        let repository = repository(dataSource, firstPage: Cursor(after: nil))
        TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["a", "b"], areMorePages: true, nextPageRequirements: "b")
        }
        repository.requirements = octocat
        _ = run(repository) { env.scheduler.scheduleAt(100_100) { repository.goToNextPage() } }
        #expect(dataSource.nextPageAsks.map(\.1) == ["b"])
        #expect(dataSource.fetches == ["fetch after b"])
        #expect(dataSource.cache(for: octocat) == ["a", "b", "c", "d"])
    }

    @Test func voidNextPageRequirementsArePassedOnOnlyWhenGiven() {
        for given in [Void?.none, ()] {
            let env = VirtualTeller()
            let dataSource = PageNumberDataSource(automaticallyRefresh: false)
            dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
            let repository = TellerPagingRepository(
                dataSource: dataSource,
                firstPageRequirements: PageNumber(number: 1),
                teller: env.teller
            )
            TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
                $0.cache(["a", "b"], areMorePages: true, nextPageRequirements: given)
            }
            repository.requirements = octocat
            env.scheduler.scheduleAt(100) { repository.goToNextPage() }
            withExtendedLifetime(repository) { env.scheduler.start() }
            #expect(dataSource.nextPageAsks.count == 1)
            #expect((dataSource.nextPageAsks.first.flatMap { $0.1 } != nil) == (given != nil))
        }
    }

    /// The paging progress `initState` writes for each kind of next-page requirements equals
    /// what a real repository writes after fetching that first page.
    @Test func theStoredPagingIsWhatARealFirstPageFetchStores() {
        struct Opaque: Sendable {
            let token: String
        }
        func stored<Next: Sendable>(
            _ next: Next?,
            more: Bool,
            byFetch: Bool
        ) -> PagingMetadata? {
            let env = VirtualTeller()
            let dataSource = InMemoryPagedDataSource<Cursor, Next>(automaticallyRefresh: byFetch) { _, _ in
                Cursor(after: "next")
            }
            dataSource.respond { _ in env.page(["a"], more: more, next: next, after: 10) }
            let repository = TellerPagingRepository(
                dataSource: dataSource,
                firstPageRequirements: Cursor(after: nil),
                teller: env.teller
            )
            if byFetch {
                repository.requirements = octocat
            } else {
                TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
                    $0.cache(["a"], areMorePages: more, nextPageRequirements: next)
                }
                repository.requirements = octocat
            }
            withExtendedLifetime(repository) { env.scheduler.start() }
            return env.store.metadata(forTag: octocat.tag)?.paging
        }
        #expect(stored("b", more: true, byFetch: false) == stored("b", more: true, byFetch: true))
        #expect(stored("b", more: true, byFetch: false)?.nextPageRequirements != nil)
        #expect(stored(String?.none, more: true, byFetch: false) == stored(String?.none, more: true, byFetch: true))
        #expect(stored((), more: true, byFetch: false) == stored((), more: true, byFetch: true))
        #expect(stored(Void?.none, more: false, byFetch: false) == stored(Void?.none, more: false, byFetch: true))
        let opaque = Opaque(token: "b")
        #expect(stored(opaque, more: true, byFetch: false) == stored(opaque, more: true, byFetch: true))
        #expect(stored(opaque, more: true, byFetch: false) == PagingMetadata(areMorePages: false))
    }

    // MARK: Ages

    @Test func withAutomaticRefreshTheFirstPageIsFetchedAgainWhateverItsAge() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["new a", "new b"], ["new c"]]))
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))
        TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["a", "b"], areMorePages: true)
        }
        repository.requirements = octocat
        let states = run(repository)
        #expect(
            states.timeline == [
                "100001: cache unread age 100000, refreshing",
                "100003: cache [\"a\", \"b\"] age 100000, refreshing, more",
                "100014: cache [\"a\", \"b\"] age 100013, justFinishedRefresh, more",
                "100014: cache [\"new a\", \"new b\"] age 100013, more",
            ]
        )
    }

    @Test func anUnforcedRefreshOfACacheTooOldFetches() {
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        dataSource.respond(with: env.pageNumberServer([["new a", "new b"]]))
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))
        let result = TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["a", "b"], areMorePages: true) { $0.cacheTooOld() }
        }
        #expect(result.lastFetched == env.date(100_000 - 3_600 - 3_600))
        repository.requirements = octocat
        let results = env.scheduler.createObserver(RefreshResult.self)
        _ = try? repository.refresh(force: false).asObservable().subscribe(results)
        withExtendedLifetime(repository) { env.scheduler.start() }
        // The refresh waits for the trim of the cache (one tick), then fetches for ten.
        #expect(results.events == [.next(100_013, .successful), .completed(100_013)])
        #expect(dataSource.cache(for: octocat) == ["new a", "new b"])
    }

    @Test func anUnforcedRefreshOfACacheNotTooOldIsSkipped() {
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))
        TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["a", "b"], areMorePages: true) { $0.cacheNotTooOld() }
        }
        repository.requirements = octocat
        let results = env.scheduler.createObserver(RefreshResult.self)
        _ = try? repository.refresh(force: false).asObservable().subscribe(results)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(results.events == [.next(100_000, .skipped(reason: .dataNotTooOld)), .completed(100_000)])
        #expect(dataSource.fetches.isEmpty)
    }

    @Test func lastFetchedWritesThatDate() {
        let repository = repository(PageNumberDataSource(automaticallyRefresh: false), firstPage: PageNumber(number: 1))
        let result = TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["a"], areMorePages: false) { $0.lastFetched(env.date(99_000)) }
        }
        #expect(result.lastFetched == env.date(99_000))
        #expect(metadata()?.lastFetched == env.date(99_000))
        repository.requirements = octocat
        #expect(run(repository).timeline.last == "100003: cache [\"a\"] age 99000")
    }

    // MARK: cacheEmpty

    @Test func cacheEmptyDeletesTheCacheAndTheRepositoryShowsItEmpty() {
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        dataSource.write(["old"], for: octocat)
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))
        let result = TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cacheEmpty()
        }
        #expect(result.lastFetched == env.date(100_000))
        #expect(Array(dataSource.log.prefix(1)) == ["delete"])
        #expect(!dataSource.log.contains { $0.hasPrefix("save") })
        repository.requirements = octocat
        let states = run(repository)
        #expect(states.timeline.last == "100003: cache empty age 100000")
        #expect(
            states.states.last == State.testing.pagedCache(requirements: octocat, lastTimeFetched: env.date(100_000))
        )
    }

    // MARK: Failures

    @Test func aFailingSaveLeavesNoCacheAndReportsTheError() {
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(50)), forTag: octocat.tag)
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        dataSource.failSaves(with: TestError(5))
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))
        let result = TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["a"], areMorePages: true)
        }
        #expect(result == InitStateResult(lastFetched: nil, saveError: TestError(5)))
        #expect(metadata() == nil)
        repository.requirements = octocat
        #expect(run(repository).timeline == ["100001: noCache"])
    }

    // MARK: initStateAsync

    @Test func asyncWritesOnTheBackgroundSchedulerOnlyOnceSubscribed() {
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))
        let single = TellerPagingRepository.testing.initStateAsync(repository: repository, requirements: octocat) {
            $0.cache(["a", "b"], areMorePages: true) { $0.cacheTooOld() }
        }
        #expect(dataSource.log.isEmpty)
        let results = env.scheduler.createObserver(InitStateResult.self)
        env.scheduler.scheduleAt(100_010) { _ = single.asObservable().subscribe(results) }
        env.scheduler.advanceTo(100_010)
        #expect(dataSource.log.isEmpty)
        #expect(repository.requirements == nil)
        env.scheduler.advanceTo(100_011)
        #expect(dataSource.log == ["delete", "save page 1"])
        #expect(repository.requirements == nil)
        let lastFetched = env.date(100_011 - 7_200)
        #expect(results.events == [.next(100_011, InitStateResult(lastFetched: lastFetched)), .completed(100_011)])
        #expect(metadata() == FetchMetadata(lastFetched: lastFetched, paging: PagingMetadata(areMorePages: true)))
    }

    @Test func asyncFailsWithTheSaveError() {
        let dataSource = PageNumberDataSource()
        dataSource.failSaves(with: TestError(6))
        let repository = repository(dataSource, firstPage: PageNumber(number: 1))
        let results = env.scheduler.createObserver(InitStateResult.self)
        _ = TellerPagingRepository.testing.initStateAsync(repository: repository, requirements: octocat) {
            $0.cache(["a"], areMorePages: false)
        }
        .asObservable().subscribe(results)
        env.scheduler.advanceTo(100_001)
        #expect(results.events.count == 1)
        #expect(results.events.first?.value.error as? TestError == TestError(6))
        #expect(metadata() == nil)
    }

    // MARK: The ported flow: initState, script the fetch, set requirements

    @Test(arguments: [false, true])
    func initStateStartsNoFetchAndSettingTheRequirementsThenFetchesTheFirstPageExactlyOnce(cached: Bool) {
        let dataSource = PagingRepositoryDataSourceMock<[String], TestRequirements, PageNumber, [String], Error, Void>()
        let repository = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )

        TellerPagingRepository.testing.initState(repository: repository, requirements: octocat) {
            if cached { $0.cache(["a", "b"], areMorePages: true) { $0.cacheTooOld() } } else { $0.noCache() }
        }

        // Nothing runs until the requirements are set, however long the test takes to get there.
        env.scheduler.advanceTo(100_100)
        #expect(repository.requirements == nil)
        #expect(dataSource.fetchFreshCacheCallsCount == 0)
        #expect(dataSource.persistOnlyFirstPageCallsCount == 0)

        dataSource.fetchFreshCacheClosure = { [env] _, _ in env.page(["new a", "new b"], more: false, after: 10) }
        repository.requirements = octocat
        let states = run(repository)

        #expect(dataSource.fetchFreshCacheInvocations.map(\.pagingRequirements) == [PageNumber(number: 1)])
        #expect(dataSource.saveCacheInvocations.last?.cache == ["new a", "new b"])
        #expect(!states.states.contains { $0.refreshError != nil })
    }

    // MARK: Mocks

    @Test func initStateWorksOnTheMocksAndLeavesTheRepositorysRequirementsAlone() {
        let dataSource = PagingRepositoryDataSourceMock<[String], TestRequirements, PageNumber, [String], Error, Void>()
        let mock = TellerPagingRepositoryMock(dataSource: dataSource, firstPageRequirements: PageNumber(number: 1))
        TellerPagingRepository.testing.initState(repository: mock, requirements: octocat) {
            $0.cache(["a"], areMorePages: true)
        }
        #expect(!mock.requirementsCalled)
        #expect(!mock.mockCalled)
        #expect(dataSource.deleteCacheInvocations == [octocat])
        #expect(dataSource.saveCacheInvocations.map(\.cache) == [["a"]])
        #expect(dataSource.saveCacheInvocations.map(\.pagingRequirements) == [PageNumber(number: 1)])
    }
}

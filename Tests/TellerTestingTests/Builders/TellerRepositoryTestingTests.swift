import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `TellerRepository.testing.initState` / `initStateAsync` on virtual time: what they write,
/// where they save, and how the repository behaves once the test sets its requirements (the
/// helpers leave them alone, as Teller-iOS's did).
@Suite struct TellerRepositoryTestingTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")
    /// One hour, InMemoryDataSource's default.
    let maxAge = Period(unit: 1, component: .hour)

    init() {
        // Start late enough that "an hour ago" is after the epoch.
        env.scheduler.advanceTo(100_000)
    }

    private func metadata() -> FetchMetadata? {
        env.store.metadata(forTag: octocat.tag)
    }

    /// Observes `repository` now and runs the scheduler to the end.
    private func run<DataSource: RepositoryDataSource>(
        _ repository: TellerRepository<DataSource>
    ) -> TestableObserver<CacheState<[String]>> where DataSource.Cache == [String] {
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        let subscription = repository.observe().subscribe(states)
        withExtendedLifetime(repository) { env.scheduler.start() }
        subscription.dispose()
        return states
    }

    // MARK: noCache

    @Test func noCacheForgetsTheTagAndTheRepositoryStartsItsFirstFetch() {
        env.markFetched(octocat, at: 50)
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)

        let result = TellerRepository.testing.initState(repository: repository, requirements: octocat) { $0.noCache() }

        #expect(result == InitStateResult(lastFetched: nil))
        #expect(metadata() == nil)
        repository.requirements = octocat
        let states = run(repository)
        #expect(states.timeline.first == "100001: noCache, firstFetch")
        #expect(dataSource.calls.fetches == 1)
        #expect(dataSource.calls.saves == 1)
    }

    @Test func withoutADescriptionTheRepositoryHasNoCache() {
        env.markFetched(octocat, at: 50)
        let repository = TellerRepository(
            dataSource: InMemoryDataSource(automaticallyRefresh: false),
            teller: env.teller
        )
        let result = TellerRepository.testing.initState(repository: repository, requirements: octocat)
        #expect(result.lastFetched == nil)
        #expect(metadata() == nil)
        repository.requirements = octocat
        #expect(run(repository).timeline == ["100001: noCache"])
    }

    // MARK: cacheEmpty

    @Test func cacheTooOldIsReallyOlderThanMaxAgeOfCache() {
        let repository = TellerRepository(
            dataSource: InMemoryDataSource(automaticallyRefresh: false),
            teller: env.teller
        )
        let result = TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cacheEmpty { $0.cacheTooOld() }
        }
        let now = env.date(100_000)
        #expect(result.lastFetched == env.date(100_000 - 3_600 - 3_600))
        #expect(metadata()?.lastFetched == result.lastFetched)
        #expect(maxAge.isTooOld(lastFetched: env.date(100_000 - 7_200), now: now))
    }

    @Test func aRepositoryWithACacheTooOldRefreshesAsSoonAsItsRequirementsAreSet() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cacheEmpty { $0.cacheTooOld() }
        }
        repository.requirements = octocat
        let states = run(repository)
        #expect(
            states.timeline == [
                "100001: cache unread age 92800, refreshing",
                "100001: cache empty age 92800, refreshing",
                "100013: cache empty age 100012, justFinishedRefresh",
                "100013: cache [\"new\"] age 100012",
            ]
        )
        #expect(dataSource.calls.fetches == 1)
    }

    @Test func anUnforcedRefreshOfACacheTooOldFetches() {
        // The Teller-iOS bug: its `cacheTooOld()` wrote a fresh date, so this was skipped.
        let dataSource = InMemoryDataSource(
            maxAgeOfCache: Period(unit: 5, component: .hour),
            automaticallyRefresh: false
        )
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["old"]) { $0.cacheTooOld() }
        }
        repository.requirements = octocat
        let results = env.scheduler.createObserver(RefreshResult.self)
        _ = try? repository.refresh(force: false).asObservable().subscribe(results)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(results.events == [.next(100_012, .successful), .completed(100_012)])
        #expect(dataSource.calls.fetches == 1)
    }

    @Test func cacheNotTooOldWasFetchedNowAndIsNotRefreshed() {
        let dataSource = InMemoryDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let result = TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cacheEmpty { $0.cacheNotTooOld() }
        }
        #expect(result.lastFetched == env.date(100_000))
        repository.requirements = octocat
        let results = env.scheduler.createObserver(RefreshResult.self)
        _ = try? repository.refresh(force: false).asObservable().subscribe(results)
        let states = run(repository)
        #expect(results.events == [.next(100_000, .skipped(reason: .dataNotTooOld)), .completed(100_000)])
        #expect(states.timeline == ["100001: cache unread age 100000", "100001: cache empty age 100000"])
        #expect(dataSource.calls.fetches == 0)
    }

    @Test func cacheEmptyIsNotTooOldByDefaultAndSavesNothing() {
        let dataSource = InMemoryDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let result = TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cacheEmpty()
        }
        #expect(result.lastFetched == env.date(100_000))
        #expect(dataSource.calls.saves == 0)
    }

    @Test func lastFetchedWritesThatDate() {
        let repository = TellerRepository(dataSource: InMemoryDataSource(), teller: env.teller)
        let result = TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cacheEmpty { $0.lastFetched(env.date(99_000)) }
        }
        #expect(result.lastFetched == env.date(99_000))
        #expect(metadata() == FetchMetadata(lastFetched: env.date(99_000)))
        repository.requirements = octocat
        #expect(run(repository).timeline.last == "100001: cache empty age 99000")
    }

    // MARK: cache(_:)

    @Test func cacheIsSavedThroughTheDataSourceOnTheCallingThreadAndTheRequirementsAreLeftAlone() {
        let dataSource = RepositoryDataSourceMock<[String], TestRequirements, [String], Error>()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let marker = "initState-\(UUID())"
        Thread.current.threadDictionary["TellerTestingMarker"] = marker
        defer { Thread.current.threadDictionary["TellerTestingMarker"] = nil }
        let seen = Locked<[String?]>([])
        dataSource.saveCacheClosure = { _, _ in
            seen.withLock { $0.append(Thread.current.threadDictionary["TellerTestingMarker"] as? String) }
        }

        let result = TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["existing"]) { $0.lastFetched(env.date(99_500)) }
        }

        #expect(seen.value == [marker])
        #expect(dataSource.saveCacheInvocations.map(\.cache) == [["existing"]])
        #expect(dataSource.saveCacheInvocations.map(\.requirements) == [octocat])
        #expect(result.lastFetched == env.date(99_500))
        #expect(repository.requirements == nil)
    }

    @Test func aCacheSetUpThisWayIsWhatTheRepositoryShows() {
        let dataSource = InMemoryDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["existing"])
        }
        repository.requirements = octocat
        let states = run(repository)
        #expect(states.timeline == ["100001: cache unread age 100000", "100001: cache [\"existing\"] age 100000"])
        #expect(dataSource.calls.fetches == 0)
    }

    @Test func aFailingSaveLeavesNoCacheAndReportsTheError() {
        env.markFetched(octocat, at: 50)
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.failSaves(with: TestError(5))
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let result = TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["existing"])
        }
        #expect(result == InitStateResult(lastFetched: nil, saveError: TestError(5)))
        #expect(metadata() == nil)
        repository.requirements = octocat
        #expect(run(repository).timeline == ["100001: noCache"])
    }

    // MARK: initStateAsync

    @Test func asyncSavesOnTheBackgroundSchedulerOnlyOnceSubscribed() {
        let dataSource = InMemoryDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let single = TellerRepository.testing.initStateAsync(repository: repository, requirements: octocat) {
            $0.cache(["existing"]) { $0.cacheTooOld() }
        }
        #expect(dataSource.calls.saves == 0)
        let results = env.scheduler.createObserver(InitStateResult.self)
        env.scheduler.scheduleAt(100_010) { _ = single.asObservable().subscribe(results) }
        env.scheduler.advanceTo(100_010)
        #expect(dataSource.calls.saves == 0)
        #expect(repository.requirements == nil)
        env.scheduler.advanceTo(100_011)
        #expect(dataSource.calls.saves == 1)
        #expect(repository.requirements == nil)
        #expect(dataSource.calls.fetches == 0)
        // The age is computed when the work runs, from the repository's clock.
        let lastFetched = env.date(100_011 - 7_200)
        #expect(results.events == [.next(100_011, InitStateResult(lastFetched: lastFetched)), .completed(100_011)])
        #expect(metadata()?.lastFetched == lastFetched)
    }

    @Test func asyncFailsWithTheSaveError() {
        let dataSource = InMemoryDataSource()
        dataSource.failSaves(with: TestError(6))
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let results = env.scheduler.createObserver(InitStateResult.self)
        _ = TellerRepository.testing.initStateAsync(repository: repository, requirements: octocat) {
            $0.cache(["existing"])
        }
        .asObservable().subscribe(results)
        env.scheduler.advanceTo(100_001)
        #expect(results.events.count == 1)
        #expect(results.events.first?.value.error as? TestError == TestError(6))
        #expect(metadata() == nil)
    }

    @Test func asyncCallbackRunsOnTheBackgroundScheduler() {
        let dataSource = InMemoryDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let completed = Locked<[InitStateResult]>([])
        TellerRepository.testing.initStateAsync(
            repository: repository,
            requirements: octocat,
            onComplete: { result in completed.withLock { $0.append(result) } },
            more: { $0.cacheEmpty() }
        )
        #expect(completed.value.isEmpty)
        env.scheduler.advanceTo(100_001)
        #expect(completed.value == [InitStateResult(lastFetched: env.date(100_001))])
    }

    @Test func asyncOnARealBackgroundQueueSavesOffTheCallingThread() throws {
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "ui"),
            backgroundScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "background")
        )
        let dataSource = RepositoryDataSourceMock<[String], TestRequirements, [String], Error>()
        let marker = "caller-\(UUID())"
        Thread.current.threadDictionary["TellerTestingMarker"] = marker
        defer { Thread.current.threadDictionary["TellerTestingMarker"] = nil }
        let seen = Locked<[String?]>([])
        dataSource.saveCacheClosure = { _, _ in
            seen.withLock { $0.append(Thread.current.threadDictionary["TellerTestingMarker"] as? String) }
        }
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        let result = try TellerRepository.testing.initStateAsync(repository: repository, requirements: octocat) {
            $0.cache(["existing"])
        }
        .toBlocking(timeout: 10).first()
        #expect(result?.lastFetched != nil)
        #expect(seen.value == [nil])
    }

    // MARK: The ported flow: initState, script the fetch, set requirements

    /// The states a test starts from that make a repository with automatic refresh fetch.
    enum FetchingState: String, CaseIterable, Sendable {
        case noCache, emptyCacheTooOld, cacheTooOld

        func describe(_ dsl: inout RepositoryStateDsl<[String]>) {
            switch self {
            case .noCache: dsl.noCache()
            case .emptyCacheTooOld: dsl.cacheEmpty { $0.cacheTooOld() }
            case .cacheTooOld: dsl.cache(["old"]) { $0.cacheTooOld() }
            }
        }
    }

    @Test(arguments: FetchingState.allCases)
    func initStateStartsNoFetchAndSettingTheRequirementsThenFetchesExactlyOnce(given: FetchingState) {
        let dataSource = RepositoryDataSourceMock<[String], TestRequirements, [String], Error>()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)

        TellerRepository.testing.initState(repository: repository, requirements: octocat) { given.describe(&$0) }

        // Nothing runs until the requirements are set, however long the test takes to get there.
        env.scheduler.advanceTo(100_100)
        #expect(repository.requirements == nil)
        #expect(dataSource.fetchFreshCacheCallsCount == 0)

        dataSource.fetchFreshCacheClosure = { [env] _ in env.fetch(["new"], after: 10) }
        repository.requirements = octocat
        let states = run(repository)

        #expect(dataSource.fetchFreshCacheInvocations == [octocat])
        #expect(dataSource.saveCacheInvocations.last?.cache == ["new"])
        #expect(!states.events.contains { $0.value.element?.refreshError != nil })
    }

    @Test func aRepositoryWhoseRequirementsWereSetBeforeShowsTheStateOnceTheyAreSetAgain() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        repository.requirements = octocat
        TellerRepository.testing.initState(repository: repository, requirements: octocat) {
            $0.cache(["existing"]) { $0.lastFetched(env.date(99_000)) }
        }
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        let subscription = repository.observe().subscribe(states)
        env.scheduler.scheduleAt(100_050) { repository.requirements = octocat }
        withExtendedLifetime(repository) { env.scheduler.start() }
        subscription.dispose()
        let shown = states.events.compactMap(\.value.element)
        // It showed what it had read when its requirements were set, and the new state after.
        #expect(shown.first?.cacheExists == false)
        #expect(shown.last?.cache == ["existing"])
        #expect(shown.last?.cacheAge == env.date(99_000))
    }

    // MARK: Isolation

    @Test func clearForgetsEverythingInitStateWrote() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let first = TellerRepository(dataSource: dataSource, teller: env.teller)
        TellerRepository.testing.initState(repository: first, requirements: octocat) { $0.cacheEmpty() }
        #expect(metadata() != nil)

        env.teller.clear()

        #expect(metadata() == nil)
        let second = TellerRepository(dataSource: dataSource, teller: env.teller)
        second.requirements = octocat
        #expect(run(second).timeline == ["100001: noCache"])
    }

    @Test func initStateWorksThroughTheOldAndNewNamesOfTheMockAndLeavesItsRequirementsAlone() {
        let dataSource = InMemoryDataSource()
        let mock: RepositoryMock<InMemoryDataSource> = TellerRepositoryMock(dataSource: dataSource)
        let result = TellerRepository.testing.initState(repository: mock, requirements: octocat) { $0.cache(["a"]) }
        #expect(result.lastFetched != nil)
        #expect(dataSource.cache(for: octocat) == ["a"])
        #expect(!mock.requirementsCalled)
        #expect(!mock.mockCalled)
    }
}

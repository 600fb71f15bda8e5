import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Lifecycle defects found through the public API, each pinned: a save that always fails, a
/// cleared Teller, requirements set to nil, unrelated data sources sharing a tag, a failing
/// cache observation, a clock moved back.
@Suite struct RepositoryLifecycleTests {
    let env = VirtualTeller()
    let dataSource = InMemoryDataSource()
    let octocat = TestRequirements(username: "octocat")

    /// A repository of `dataSource` showing octocat's cache, fetched at `fetchedAt`, observed
    /// from tick 100 on.
    private func observedRepository(
        fetchedAt: Int = 50,
        dataSource: InMemoryDataSource? = nil
    ) -> (TellerRepository<InMemoryDataSource>, TestableObserver<CacheState<[String]>>) {
        let dataSource = dataSource ?? self.dataSource
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: fetchedAt)
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        return (repository, states)
    }

    // MARK: Refetch storm

    @Test func aSaveThatAlwaysFailsDoesNotStartFetchesOnItsOwn() {
        dataSource.failSaves(with: TestError(1))
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        // Fetched at 0: too old (one hour) from tick 3,600 on.
        let (repository, states) = observedRepository(fetchedAt: -10_000)
        withExtendedLifetime(repository) { env.scheduler.advanceTo(20_000) }
        #expect(dataSource.calls.fetches == 1)
        #expect(dataSource.calls.saves == 1)
        let last = states.events.last?.value.element
        #expect(last?.cache == ["old"])
        #expect(last?.isRefreshing == false)
        #expect(states.timeline.contains { $0.contains("refreshError TestError(1)") })
    }

    @Test func afterAFailedSaveAnExplicitRefreshOrANewObserveFetchesAgain() {
        dataSource.failSaves(with: TestError(1))
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let (repository, _) = observedRepository(fetchedAt: -10_000)
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(5_000) {
            _ = try? repository.refresh(force: false).asObservable().subscribe(results)
        }
        env.scheduler.scheduleAt(8_000) { _ = repository.observe().subscribe(onNext: { _ in }) }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(20_000) }
        #expect(dataSource.calls.fetches == 3)
        #expect(results.events.first?.value.element == .failedError(error: TestError(1)))
    }

    @Test func aFetchThatAlwaysFailsIsNotRetriedWhenTheCacheEmitsAgain() {
        dataSource.respond { _ in env.failingFetch(TestError(2), after: 10) }
        let (repository, _) = observedRepository(fetchedAt: -10_000)
        // Another part of the app writes the cache: new data, but no reason to fetch again.
        env.scheduler.scheduleAt(1_000) { dataSource.write(["written"], for: octocat) }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(20_000) }
        #expect(dataSource.calls.fetches == 1)
    }

    // MARK: Teller.clear()

    @Test func clearShowsEveryLiveRepositoryANeverFetchedCacheAndFetches() {
        let (repository, states) = observedRepository()
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        env.scheduler.scheduleAt(200) { env.teller.clear() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: cache unread age 50",
                "101: cache [\"old\"] age 50",
                "201: noCache, firstFetch",
                "213: cache unread age 212, justFinishedFirstFetch",
                "213: cache [\"new\"] age 212",
            ]
        )
        #expect(dataSource.calls.fetches == 1)
    }

    @Test func afterClearRefreshIfNoCacheAndAnUnforcedRefreshFetch() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let (repository, _) = observedRepository(dataSource: dataSource)
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let ifNoCache = env.scheduler.createObserver(RefreshResult.self)
        let unforced = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(200) { env.teller.clear() }
        env.scheduler.scheduleAt(300) {
            _ = try? repository.refreshIfNoCache().asObservable().subscribe(ifNoCache)
        }
        env.scheduler.scheduleAt(400) {
            env.teller.clear()
            _ = try? repository.refresh(force: false).asObservable().subscribe(unforced)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(ifNoCache.events == [.next(312, .successful), .completed(312)])
        #expect(unforced.events == [.next(412, .successful), .completed(412)])
        #expect(dataSource.calls.fetches == 2)
    }

    // MARK: Requirements set to nil

    @Test func afterRequirementsAreSetToNilANewObserverSeesNothingOfThePreviousOnes() {
        let (repository, states) = observedRepository()
        let hubot = TestRequirements(username: "hubot")
        dataSource.respond { _ in env.fetch(["hubot's"], after: 10) }
        let late = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(200) { repository.requirements = nil }
        env.scheduler.scheduleAt(300) { _ = repository.observe().subscribe(late) }
        env.scheduler.scheduleAt(400) { repository.requirements = hubot }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(late.timeline.first == "401: noCache, firstFetch")
        #expect(late.events.allSatisfy { $0.value.element?.requirements?.tag != octocat.tag })
        // Existing observers get nothing while there are no requirements.
        #expect(!states.events.contains { (200..<400).contains($0.time) })
    }

    // MARK: Flights of unrelated data sources

    @Test func twoDataSourceTypesUsingOneTagEachFetchAndSaveTheirOwnData() {
        let other = OtherStoreDataSource()
        dataSource.respond { _ in env.fetch(["mine"], after: 50) }
        other.store.respond { _ in env.fetch(["theirs"], after: 50) }
        let mine = TellerRepository(dataSource: dataSource, teller: env.teller)
        let theirs = TellerRepository(dataSource: other, teller: env.teller)
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(100) {
            mine.requirements = octocat
            theirs.requirements = octocat
            _ = try? theirs.refresh(force: true).asObservable().subscribe(results)
        }
        withExtendedLifetime((mine, theirs)) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
        #expect(other.store.calls.fetches == 1)
        #expect(dataSource.cache(for: octocat) == ["mine"])
        #expect(other.store.cache(for: octocat) == ["theirs"])
        #expect(results.events.first?.value.element == .successful)
    }

    // MARK: A failing cache observation

    @Test func aFailingObservationShowsACacheReadErrorAndTheNextObserveReadsAgain() {
        dataSource.failObservation(with: TestError(4))
        let (repository, states) = observedRepository()
        env.scheduler.scheduleAt(200) {
            dataSource.failObservation(with: nil)
            _ = repository.observe().subscribe(onNext: { _ in })
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: cache unread age 50",
                "101: cache unreadable age 50, cacheReadError TestError(4)",
                "201: cache unread age 50",
                "201: cache [\"old\"] age 50",
            ]
        )
        let failed = states.events[1].value.element
        #expect(failed?.isLoadingCache == false)
        #expect(failed?.refreshError == nil)
        #expect(dataSource.calls.fetches == 0)
        #expect(env.log.value.contains("observeCache failed for \"Repos for octocat\": TestError(4)"))
    }

    @Test func aFailingObservationIsReadAgainByARefresh() {
        dataSource.failObservation(with: TestError(4))
        let (repository, states) = observedRepository()
        env.scheduler.scheduleAt(200) {
            dataSource.failObservation(with: nil)
            _ = try? repository.refresh(force: false).subscribe()
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline.last == "201: cache [\"old\"] age 50")
    }

    // MARK: A clock moved back

    @Test func aLastFetchedTimeInTheFutureCountsAsTooOld() {
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let (repository, _) = observedRepository(fetchedAt: 1_000_000)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
        #expect(dataSource.cache(for: octocat) == ["new"])
    }
}

/// A second data-source type with a store of its own, showing the same tags as
/// `InMemoryDataSource`.
private final class OtherStoreDataSource: RepositoryDataSource, @unchecked Sendable {
    // @unchecked: `store` is thread-safe.
    typealias Cache = [String]
    typealias Requirements = TestRequirements
    typealias FetchResult = [String]
    typealias FetchError = any Error

    let store = InMemoryDataSource()
    var maxAgeOfCache: Period { store.maxAgeOfCache }

    func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<[String], any Error>> {
        store.fetchFreshCache(requirements: requirements)
    }

    func saveCache(_ cache: [String], requirements: TestRequirements) throws {
        try store.saveCache(cache, requirements: requirements)
    }

    func observeCache(requirements: TestRequirements) -> Observable<[String]> {
        store.observeCache(requirements: requirements)
    }

    func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
        store.isCacheEmpty(cache, requirements: requirements)
    }
}

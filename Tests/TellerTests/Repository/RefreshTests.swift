import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// The exact states and results of refreshing an existing cache.
@Suite struct RefreshTests {
    let env = VirtualTeller()
    let dataSource = InMemoryDataSource()
    let octocat = TestRequirements(username: "octocat")

    /// A repository whose tag was fetched at `fetchedAt` with cache ["old"], observed from 100.
    /// (Tests keep the repository alive while the scheduler runs: a released repository
    /// completes its observers.)
    private func repositoryWithCache(
        fetchedAt: Int = 50
    ) -> (TellerRepository<InMemoryDataSource>, TestableObserver<CacheState<[String]>>) {
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

    private func refresh(
        _ repository: TellerRepository<InMemoryDataSource>,
        force: Bool,
        at time: Int
    ) -> TestableObserver<RefreshResult> {
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(time) {
            _ = try? repository.refresh(force: force).asObservable().subscribe(results)
        }
        return results
    }

    @Test func freshCacheIsShownWithoutAFetch() {
        let (repository, states) = repositoryWithCache()
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline == ["101: cache unread age 50", "101: cache [\"old\"] age 50"])
        #expect(dataSource.calls.fetches == 0)
    }

    @Test func refreshSkipsWhenTheCacheIsNotTooOld() {
        let (repository, _) = repositoryWithCache()
        let results = refresh(repository, force: false, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(results.events == [.next(200, .skipped(reason: .dataNotTooOld)), .completed(200)])
        #expect(dataSource.calls.fetches == 0)
        #expect(env.log.value.contains("refresh skipped for \"Repos for octocat\": dataNotTooOld"))
    }

    @Test func forcedRefreshSucceeds() {
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let (repository, states) = repositoryWithCache()
        let results = refresh(repository, force: true, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: cache unread age 50",
                "101: cache [\"old\"] age 50",
                "201: cache [\"old\"] age 50, refreshing",
                "213: cache [\"old\"] age 212, justFinishedRefresh",
                "213: cache [\"new\"] age 212",
            ]
        )
        #expect(results.events == [.next(212, .successful), .completed(212)])
    }

    @Test func refreshFailureKeepsTheOldCacheAndAge() {
        dataSource.respond { _ in env.failingFetch(TestError(7), after: 10) }
        let (repository, states) = repositoryWithCache()
        let results = refresh(repository, force: true, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: cache unread age 50",
                "101: cache [\"old\"] age 50",
                "201: cache [\"old\"] age 50, refreshing",
                "213: cache [\"old\"] age 50, refreshError TestError(7)",
            ]
        )
        #expect(results.events == [.next(212, .failedError(error: TestError(7))), .completed(212)])
        #expect(env.store.metadata(forTag: octocat.tag)?.lastFetched == env.date(50))
    }

    @Test func fetchSingleThatErrorsEndsInAFailedRefresh() {
        dataSource.respond { _ in env.scheduler.createColdObservable([.error(10, TestError(8))]).asSingle() }
        let (repository, states) = repositoryWithCache()
        let results = refresh(repository, force: true, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline.last == "213: cache [\"old\"] age 50, refreshError TestError(8)")
        #expect(results.events.first?.value.element == .failedError(error: TestError(8)))
    }

    @Test func saveFailureReportsTheErrorKeepsTheAgeAndObservesTheCacheAgain() {
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        dataSource.failSaves(with: TestError(9))
        let (repository, states) = repositoryWithCache()
        let results = refresh(repository, force: true, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: cache unread age 50",
                "101: cache [\"old\"] age 50",
                "201: cache [\"old\"] age 50, refreshing",
                "213: cache [\"old\"] age 50, refreshError TestError(9)",
                "213: cache [\"old\"] age 50",
            ]
        )
        #expect(results.events.first?.value.element == .failedError(error: TestError(9)))
        #expect(dataSource.calls.observes == 2)
        #expect(env.log.value.contains("saveCache failed for \"Repos for octocat\": TestError(9)"))
    }

    @Test func fetchThatNeverCompletesTimesOut() {
        dataSource.respond { _ in .never() }
        let (repository, states) = repositoryWithCache()
        let results = refresh(repository, force: true, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        let timedOut = TellerError.fetchTimedOut(tag: octocat.tag, seconds: 60)
        #expect(results.events == [.next(260, .failedError(error: timedOut)), .completed(260)])
        #expect(states.timeline.last == "261: cache [\"old\"] age 50, refreshError \(timedOut)")
        #expect(states.events.last?.value.element?.isRefreshing == false)
    }

    @Test func staleCacheShowsRefreshingFromTheFirstStateThatCarriesItsAge() {
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        env.scheduler.advanceTo(10_000)
        let (repository, states) = repositoryWithCache(fetchedAt: 50)
        env.scheduler.scheduleAt(10_100) {}
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline.first == "10001: cache unread age 50, refreshing")
        #expect(states.timeline.last == "10013: cache [\"new\"] age 10012")
        #expect(dataSource.calls.fetches == 1)
    }

    @Test func cacheEmittingWhileTooOldTriggersARefresh() {
        dataSource.respond { _ in env.fetch(["fetched"], after: 10) }
        let (repository, states) = repositoryWithCache(fetchedAt: 50)
        // An hour after the fetch, the app writes the cache: it emits while too old.
        env.scheduler.scheduleAt(4_000) { dataSource.write(["written"], for: octocat) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: cache unread age 50",
                "101: cache [\"old\"] age 50",
                "4002: cache [\"written\"] age 50, refreshing",
                "4014: cache [\"written\"] age 4013, justFinishedRefresh",
                "4014: cache [\"fetched\"] age 4013",
            ]
        )
        #expect(dataSource.calls.fetches == 1)
    }

    @Test func observeTriggersARefreshWhenTheCacheIsTooOld() {
        dataSource.respond { _ in env.fetch(["fetched"], after: 10) }
        let (repository, _) = repositoryWithCache(fetchedAt: 50)
        let late = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(5_000) { _ = repository.observe().subscribe(late) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(late.timeline.first == "5001: cache [\"old\"] age 50, refreshing")
        #expect(dataSource.calls.fetches == 1)
    }

    @Test func refreshIfNoCacheSucceedsAtOnceWhenACacheExists() {
        let (repository, _) = repositoryWithCache()
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(200) {
            _ = try? repository.refreshIfNoCache().asObservable().subscribe(results)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(results.events == [.next(200, .successful), .completed(200)])
        #expect(dataSource.calls.fetches == 0)
    }
}

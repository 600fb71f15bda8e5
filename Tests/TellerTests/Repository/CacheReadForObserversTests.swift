import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A repository reads its cache for observers only: `observeCache` (and `isCacheEmpty` on what
/// it emits) from the first `observe()` subscription until the last one is disposed. A repository
/// that is only refreshed never calls them, and gives the UI scheduler nothing to do.
@Suite struct CacheReadForObserversTests {
    let env = VirtualTeller()
    let dataSource = InMemoryDataSource()
    let octocat = TestRequirements(username: "octocat")

    @Test func aRepositoryThatIsOnlyRefreshedNeverReadsItsCache() {
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: 50)
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }
        for time in [200, 300] {
            env.scheduler.scheduleAt(time) {
                _ = try? repository.refresh(force: true).asObservable().subscribe(results)
            }
        }
        env.scheduler.scheduleAt(400) { dataSource.write(["changed elsewhere"], for: octocat) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(results.events.filter { $0.value.element == .successful }.count == 2)
        #expect(dataSource.calls.fetches == 2)
        #expect(dataSource.calls.observes == 0)
        #expect(dataSource.calls.isEmptyChecks == 0)
    }

    @Test func theLastObserverLeavingStopsTheReadAndTheNextOneReadsTheCacheAnew() {
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: 50)
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let first = env.scheduler.createObserver(CacheState<[String]>.self)
        let second = env.scheduler.createObserver(CacheState<[String]>.self)
        let subscription = SingleAssignmentDisposable()
        let checksWhileObserved = Locked(0)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            subscription.setDisposable(repository.observe().subscribe(first))
        }
        env.scheduler.scheduleAt(200) {
            subscription.dispose()
            checksWhileObserved.withLock { $0 = dataSource.calls.isEmptyChecks }
        }
        // Nobody reads the cache now: this change reaches no one.
        env.scheduler.scheduleAt(300) { dataSource.write(["changed"], for: octocat) }
        env.scheduler.scheduleAt(400) { _ = repository.observe().subscribe(second) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(first.timeline == ["101: cache unread age 50", "101: cache [\"old\"] age 50"])
        #expect(checksWhileObserved.value == 1)
        #expect(second.timeline == ["401: cache unread age 50", "401: cache [\"changed\"] age 50"])
        #expect(dataSource.calls.observes == 2)
        #expect(dataSource.calls.isEmptyChecks == 2)
    }

    @Test func anObserverComingDuringARefreshIsShownTheCacheAtOnce() {
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: -10_000)
        dataSource.respond { _ in env.fetch(["new"], after: 50) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        // Too old: setting the requirements starts the refresh; the screen comes a moment later.
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }
        env.scheduler.scheduleAt(110) { _ = repository.observe().subscribe(states) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.prefix(2)) == [
                "111: cache unread age -10000, refreshing", "111: cache [\"old\"] age -10000, refreshing",
            ]
        )
        #expect(states.timeline.last == "153: cache [\"new\"] age 152")
    }

    @Test func aPagingRepositoryThatIsOnlyRefreshedNeverReadsItsPages() {
        let paged = PageNumberDataSource()
        paged.write(["a", "b", "c"], for: octocat)
        env.markFetched(octocat, at: 50, paging: PagingMetadata(areMorePages: true))
        paged.respond(with: env.pageNumberServer([["new a", "new b"], ["new c"]]))
        let repository = TellerPagingRepository(
            dataSource: paged,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }
        env.scheduler.scheduleAt(200) { _ = try? repository.refresh(force: true).subscribe() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(paged.log.filter { $0.hasPrefix("observe") }.isEmpty)
        // The pages left from earlier are still trimmed before the first page is fetched.
        #expect(paged.log.first == "trim")
        #expect(paged.log.filter { $0 == "fetch page 1" }.count == 2)
    }
}

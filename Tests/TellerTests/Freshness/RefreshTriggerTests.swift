import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// What refreshes a repository from outside: the app becoming active, the network coming back,
/// and a data source's refresh interval. On virtual time; caches are fresh for an hour.
@Suite struct RefreshTriggerTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    /// A repository showing octocat's cache, fetched at `fetchedAt`, set at 100 and observed
    /// from 100 until `until` (forever when `nil`).
    private func observed(
        _ dataSource: InMemoryDataSource,
        fetchedAt: Int = 50,
        until: Int? = nil
    ) -> (TellerRepository<InMemoryDataSource>, TestableObserver<CacheState<[String]>>) {
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: fetchedAt)
        let env = env
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        let observation = SerialDisposable()
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            observation.disposable = repository.observe().subscribe(states)
        }
        if let until {
            env.scheduler.scheduleAt(until) { observation.dispose() }
        }
        return (repository, states)
    }

    // MARK: App active

    @Test func aCacheThatGotTooOldOnScreenIsRefreshedWhenTheAppBecomesActive() {
        let dataSource = InMemoryDataSource()
        let (repository, states) = observed(dataSource)
        // Fetched at 50, too old from 3,650 on; nothing refreshes it while it sits on screen.
        env.scheduler.scheduleAt(5_000) { #expect(dataSource.calls.fetches == 0) }
        env.scheduler.scheduleAt(6_000) { env.teller.appDidBecomeActive() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
        #expect(
            Array(states.timeline.suffix(3)) == [
                "6001: cache [\"old\"] age 50, refreshing",
                "6013: cache [\"old\"] age 6012, justFinishedRefresh",
                "6013: cache [\"new\"] age 6012",
            ]
        )
    }

    @Test func theAppBecomingActiveLeavesFreshAndUnobservedCachesAlone() {
        let fresh = InMemoryDataSource()
        let (observedRepository, _) = observed(fresh)
        let unobservedSource = InMemoryDataSource()
        let unobserved = TellerRepository(dataSource: unobservedSource, teller: env.teller)
        env.scheduler.scheduleAt(100) { unobserved.requirements = TestRequirements(username: "hubot") }
        env.scheduler.scheduleAt(200) { env.teller.appDidBecomeActive() }
        withExtendedLifetime((observedRepository, unobserved)) { env.scheduler.start() }
        #expect(fresh.calls.fetches == 0)
        // hubot was never fetched: setting its requirements fetched it once, the app becoming
        // active does not, as nobody observes it.
        #expect(unobservedSource.calls.fetches == 1)
    }

    @Test func aDataSourceWithoutAutomaticRefreshIsNotRefreshedWhenTheAppBecomesActive() {
        let manual = InMemoryDataSource(automaticallyRefresh: false)
        let (repository, _) = observed(manual)
        env.scheduler.scheduleAt(6_000) { env.teller.appDidBecomeActive() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(manual.calls.fetches == 0)
    }

    @Test(arguments: AppLifecycleNames.all)
    func theAppLifecycleNotificationCountsAsTheAppBecomingActive(name: String) {
        let dataSource = InMemoryDataSource()
        let (repository, _) = observed(dataSource)
        env.scheduler.scheduleAt(6_000) { env.notifications.post(name: Notification.Name(name), object: nil) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
    }

    @Test func repositoriesShowingOneTagShareOneFetchWhenTheAppBecomesActive() {
        let dataSource = InMemoryDataSource()
        let (first, _) = observed(dataSource)
        let (second, _) = observed(dataSource)
        env.scheduler.scheduleAt(6_000) { env.teller.appDidBecomeActive() }
        withExtendedLifetime((first, second)) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
    }

    // MARK: Network back

    @Test func aRefreshThatFailedOfflineIsTriedAgainWhenTheNetworkComesBack() {
        let dataSource = InMemoryDataSource()
        let (repository, states) = observed(dataSource, fetchedAt: -10_000)
        // Offline: the automatic refresh fails, and automatic refreshes pause.
        dataSource.respond { _ in env.failingFetch(TestError(1), after: 10) }
        env.scheduler.scheduleAt(500) {
            dataSource.respond { _ in env.fetch(["online"], after: 10) }
            env.teller.networkDidBecomeAvailable()
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 2)
        #expect(states.timeline.contains("113: cache [\"old\"] age -10000, refreshError TestError(1)"))
        #expect(states.timeline.last == "513: cache [\"online\"] age 512")
    }

    @Test func theNetworkComingBackLeavesAFreshCacheAlone() {
        let dataSource = InMemoryDataSource()
        let (repository, _) = observed(dataSource)
        env.scheduler.scheduleAt(500) { env.teller.networkDidBecomeAvailable() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 0)
    }

    // MARK: Interval

    @Test func anIntervalRefreshesWhileObservedAndStopsWhenTheLastObserverLeaves() {
        let dataSource = InMemoryDataSource(refreshInterval: .seconds(100))
        // Observed from 100 to 450: fetches at 200, 300, 400.
        let (repository, states) = observed(dataSource, until: 450)
        env.scheduler.scheduleAt(1_000) { #expect(dataSource.calls.fetches == 3) }
        // Observed again from 2,000 to 2,250: fetches at 2,100 and 2,200.
        let again = SerialDisposable()
        env.scheduler.scheduleAt(2_000) { again.disposable = repository.observe().subscribe() }
        env.scheduler.scheduleAt(2_250) { again.dispose() }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        #expect(dataSource.calls.fetches == 5)
        #expect(states.timeline.contains("201: cache [\"old\"] age 50, refreshing"))
        #expect(states.timeline.contains("301: cache [\"new\"] age 212, refreshing"))
    }

    @Test func anIntervalShorterThanTheFetchNeverDoublesIt() {
        let dataSource = InMemoryDataSource(refreshInterval: .seconds(5))
        let (repository, _) = observed(dataSource, until: 200)
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        // Each fetch takes 10 ticks and a few to save; ticks while one runs join nothing new.
        #expect(dataSource.calls.fetches > 1)
        #expect(dataSource.calls.fetches <= 100 / 10)
        #expect(!env.log.value.contains { $0.hasPrefix("refresh joined") })
    }

    @Test func aRepositoryWithoutRequirementsRunsNoInterval() {
        let dataSource = InMemoryDataSource(refreshInterval: .seconds(100))
        let (repository, _) = observed(dataSource)
        env.scheduler.scheduleAt(150) { repository.requirements = nil }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        #expect(dataSource.calls.fetches == 0)
    }

    @Test(arguments: [RxTimeInterval.seconds(0), .seconds(-5), .never])
    func anIntervalThatCannotRunIsReportedAndIgnored(interval: RxTimeInterval) {
        let dataSource = InMemoryDataSource(refreshInterval: interval)
        let (repository, _) = observed(dataSource)
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        #expect(dataSource.calls.fetches == 0)
        #expect(
            env.log.value.contains {
                $0.hasPrefix("refreshInterval of InMemoryDataSource is") && $0.contains("it must be longer than zero")
            }
        )
    }

    @Test func aPagingRepositoryRefreshesItsFirstPageOnAnInterval() {
        let paged = InMemoryPagedDataSource<PageNumber, Void>(refreshInterval: .seconds(100))
        paged.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let (repository, _) = env.pagingRepository(paged, firstPage: PageNumber(number: 1))
        withExtendedLifetime(repository) { env.scheduler.advanceTo(350) }
        // Setting requirements fetches the first page, then the interval at 200 and 300.
        #expect(paged.fetches == ["fetch page 1", "fetch page 1", "fetch page 1"])
    }
}

/// The notification names a `Teller` treats as the app becoming active.
enum AppLifecycleNames {
    static let all = ["UIApplicationDidBecomeActiveNotification", "NSApplicationDidBecomeActiveNotification"]
}

import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `CacheState` keeps Teller-iOS's meanings: `isRefreshing` is true while any fetch runs, the
/// first one included (`isFirstFetch` is `!cacheExists && isRefreshing`), and `refreshError`
/// carries the error of any failed fetch or save, the first fetch's included. Pinned through
/// real repositories on virtual time.
@Suite struct CacheStateMeaningsTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    /// Sets octocat on a repository over `dataSource` and observes it at 100; at each of
    /// `refreshes`' times, scripts the data source with its closure and calls
    /// `refresh(force: true)`; returns every state emitted.
    private func states(
        of dataSource: InMemoryDataSource,
        refreshes: [(time: Int, script: @Sendable () -> Void)] = []
    ) -> [CacheState<[String]>] {
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let observer = env.scheduler.createObserver(CacheState<[String]>.self)
        let octocat = self.octocat
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(observer)
        }
        for refresh in refreshes {
            env.scheduler.scheduleAt(refresh.time) {
                refresh.script()
                _ = try? repository.refresh(force: true).subscribe()
            }
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        return observer.events.compactMap { $0.value.element }
    }

    private func error(_ error: (any Error)?) -> TestError? {
        error as? TestError
    }

    // MARK: isRefreshing

    @Test func theFirstFetchShowsAsRefreshing() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.fetch(["a"], after: 50) }
        let states = states(of: dataSource)
        let first = states.first
        #expect(first?.cacheExists == false)
        #expect(first?.isFirstFetch == true)
        #expect(first?.isRefreshing == true)
        #expect(first?.isFetching == true)
        // Once the first fetch is saved, nothing runs any more.
        #expect(states.dropFirst().map(\.isRefreshing) == [false, false])
        #expect(states.last?.cache == ["a"])
    }

    @Test func aRefreshOfAnExistingCacheIsRefreshingButNotAFirstFetch() {
        let dataSource = InMemoryDataSource()
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: 50)
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let states = states(of: dataSource, refreshes: [(200, {})])
        let refreshing = states.first { $0.isRefreshing }
        #expect(refreshing?.cache == ["old"])
        #expect(refreshing?.isFirstFetch == false)
        #expect(states.filter(\.isRefreshing).count == 1)
    }

    @Test func withoutAFetchRunningNothingIsRefreshing() {
        let states = states(of: InMemoryDataSource(automaticallyRefresh: false))
        #expect(states.count == 1)
        #expect(states.first?.isRefreshing == false)
        #expect(states.first?.isFirstFetch == false)
    }

    // MARK: refreshError

    @Test func aFailedFirstFetchShowsItsErrorAsTheRefreshError() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.failingFetch(TestError(1), after: 10) }
        let states = states(
            of: dataSource,
            refreshes: [(300, { dataSource.respond { _ in env.fetch(["a"], after: 10) } })]
        )
        let failed = states.first { $0.refreshError != nil }
        #expect(failed?.cacheExists == false)
        #expect(error(failed?.refreshError) == TestError(1))
        #expect(error(failed?.errorDuringFirstFetch) == TestError(1))
        #expect(error(failed?.fetchError) == TestError(1))
        #expect(failed?.isRefreshing == false)
        // The error belongs to that one state: the retry's states carry none.
        #expect(states.filter { $0.refreshError != nil }.count == 1)
        #expect(states.last?.cache == ["a"])
    }

    @Test func aFirstFetchWhoseSaveFailsShowsTheSaveErrorAsTheRefreshError() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.fetch(["a"], after: 10) }
        dataSource.failSaves(with: TestError(2))
        let states = states(of: dataSource)
        #expect(states.last?.cacheExists == false)
        #expect(error(states.last?.refreshError) == TestError(2))
        #expect(error(states.last?.errorDuringFirstFetch) == TestError(2))
    }

    @Test func aFailedRefreshOfAnExistingCacheIsARefreshErrorButNotAFirstFetchError() {
        let dataSource = InMemoryDataSource()
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: 50)
        dataSource.respond { _ in env.failingFetch(TestError(3), after: 10) }
        let states = states(of: dataSource, refreshes: [(200, {})])
        #expect(states.last?.cache == ["old"])
        #expect(error(states.last?.refreshError) == TestError(3))
        #expect(states.last?.errorDuringFirstFetch == nil)
    }

    // MARK: Every state

    @Test func everyStateAgreesWithTellerIOSsDefinitions() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.failingFetch(TestError(4), after: 10) }
        let states = states(
            of: dataSource,
            refreshes: [
                (300, { dataSource.respond { _ in env.fetch(["a"], after: 10) } }),
                (400, { dataSource.respond { _ in env.failingFetch(TestError(5), after: 10) } }),
                (500, { dataSource.respond { _ in env.fetch(["b"], after: 10) } }),
            ]
        )
        // A first fetch that fails, a retry, a refresh that fails, a refresh that succeeds.
        #expect(states.count >= 10)
        for state in states {
            #expect(state.isFirstFetch == (!state.cacheExists && state.isRefreshing), "\(state)")
            #expect(state.isFetching == state.isRefreshing, "\(state)")
            #expect(error(state.fetchError) == error(state.refreshError), "\(state)")
            if let firstFetchError = state.errorDuringFirstFetch {
                #expect(error(state.refreshError) == error(firstFetchError), "\(state)")
            }
            // `convert` keeps the meanings.
            let converted = state.convert { $0?.count }
            #expect(converted.isRefreshing == state.isRefreshing && converted.isFirstFetch == state.isFirstFetch)
            #expect(error(converted.refreshError) == error(state.refreshError))
            #expect(error(converted.errorDuringFirstFetch) == error(state.errorDuringFirstFetch))
        }
        #expect(states.compactMap { error($0.refreshError) } == [TestError(4), TestError(5)])
        #expect(states.compactMap { error($0.errorDuringFirstFetch) } == [TestError(4)])
        #expect(states.filter(\.isFirstFetch).count == 2)
        #expect(states.filter(\.isRefreshing).count == 4)
    }

    @Test func theDescriptionNamesTheFirstFetchAndItsErrorOnce() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.failingFetch(TestError(6), after: 10) }
        let states = states(of: dataSource)
        let running = states.first?.description ?? ""
        let failed = states.last?.description ?? ""
        #expect(running == "noCache firstFetch")
        #expect(failed == "noCache errorDuringFirstFetch(\(TestError(6)))")
    }

    // MARK: Paging

    @Test func aPagingRepositorysFirstPageShowsAsRefreshingAndItsErrorAsTheRefreshError() {
        let dataSource = PageNumberDataSource()
        dataSource.respond { _ in env.failingPage(TestError(7), after: 10, as: Void.self) }
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        withExtendedLifetime(repository) { env.scheduler.start() }
        let first = states.states.first
        #expect(first?.isFirstFetch == true)
        #expect(first?.isRefreshing == true)
        let last = states.states.last
        #expect(last?.isRefreshing == false)
        #expect(error(last?.refreshError) == TestError(7))
        #expect(error(last?.errorDuringFirstFetch) == TestError(7))
    }
}

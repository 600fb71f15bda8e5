import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Every `CacheState.testing` builder equals the state a real repository emits in that
/// situation: each test drives a `TellerRepository` on virtual time into the situation and
/// compares the emitted state with the builder's output using `==`.
@Suite struct CacheStateTestingTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")
    let builder = CacheState<[String]>.testing

    /// Sets octocat on a repository over `dataSource` and observes it at 100, force-refreshes
    /// at `refreshAt` if given, runs the scheduler to the end and returns every state emitted.
    private func states(
        of dataSource: InMemoryDataSource,
        refreshAt: Int? = nil
    ) -> [CacheState<[String]>] {
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let observer = env.scheduler.createObserver(CacheState<[String]>.self)
        let octocat = self.octocat
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(observer)
        }
        if let refreshAt {
            env.scheduler.scheduleAt(refreshAt) { _ = try? repository.refresh(force: true).subscribe() }
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        return observer.events.compactMap { $0.value.element }
    }

    /// A data source whose cache holds `cache`, fetched at 50 (fresh until 3650).
    private func dataSourceWithCache(_ cache: [String] = ["old"]) -> InMemoryDataSource {
        let dataSource = InMemoryDataSource()
        dataSource.write(cache, for: octocat)
        env.markFetched(octocat, at: 50)
        return dataSource
    }

    // MARK: No cache

    @Test func noCacheWithoutAFetchIsWhatARepositoryWithoutAutomaticRefreshShows() {
        let engine = states(of: InMemoryDataSource(automaticallyRefresh: false))
        #expect(engine.count == 1)
        #expect(engine.first == builder.noCache(requirements: octocat))
    }

    @Test func firstFetchRunningIsTheFirstStateOfANeverFetchedTag() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let engine = states(of: dataSource)
        #expect(engine.first == builder.noCache(requirements: octocat) { $0.fetchingFirstTime() })
    }

    @Test func firstFetchFailedIsTheStateAfterAFailingFirstFetch() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.failingFetch(TestError(3), after: 10) }
        let engine = states(of: dataSource)
        #expect(engine.count == 2)
        #expect(engine.last == builder.noCache(requirements: octocat) { $0.failedFirstFetch(error: TestError(3)) })
    }

    @Test func firstFetchJustSucceededIsTheStateAfterTheFirstSaveThenTheCacheFollows() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let engine = states(of: dataSource)
        #expect(engine.count == 3)
        // Fetched at 111, saved at 112 (the scheduler hop to the background).
        let justFetched = builder.noCache(requirements: octocat) { $0.successfulFirstFetch(timeFetched: env.date(112)) }
        #expect(engine.dropFirst().first == justFetched)
        #expect(
            engine.last == builder.cache(requirements: octocat, lastTimeFetched: env.date(112)) { $0.cache(["new"]) }
        )
    }

    @Test func firstFetchWaitingToRetryIsTheStateAfterAFirstFetchFailsUnderARetryPolicy() throws {
        let dataSource = InMemoryDataSource(retryPolicy: try RetryPolicy(maxRetries: 1, initialDelay: .seconds(30)))
        dataSource.respond { _ in env.failingFetch(TestError(3), after: 10) }
        let engine = states(of: dataSource)
        // The fetch subscribed at 101 fails at 111 (seen at 112); the retry starts 30 s after.
        let retry = PendingRetry(failedAttempts: 1, lastError: TestError(3), nextAttemptAt: env.date(142))
        #expect(
            engine.dropFirst().first == builder.noCache(requirements: octocat) { $0.waitingToRetryFirstFetch(retry) }
        )
    }

    @Test func refreshWaitingToRetryKeepsTheCacheAndItsAge() throws {
        let dataSource = InMemoryDataSource(retryPolicy: try RetryPolicy(maxRetries: 1, initialDelay: .seconds(30)))
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: 50)
        dataSource.respond { _ in env.failingFetch(TestError(4), after: 10) }
        let engine = states(of: dataSource, refreshAt: 200)
        let retry = PendingRetry(failedAttempts: 1, lastError: TestError(4), nextAttemptAt: env.date(242))
        let waiting = builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["old"])
            $0.waitingToRetry(retry)
        }
        #expect(engine.contains(waiting))
        #expect(waiting.pendingRetry == retry && waiting.isRefreshing && !waiting.isFirstFetch)
    }

    // MARK: Cache

    @Test func cacheNotReadYetIsTheFirstStateOfAFetchedTag() {
        let engine = states(of: dataSourceWithCache())
        #expect(
            engine.first == builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) { $0.loadingCache() }
        )
    }

    @Test func cacheWithDataIsTheStateOnceTheCacheIsRead() {
        let engine = states(of: dataSourceWithCache())
        #expect(engine.count == 2)
        #expect(
            engine.last == builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) { $0.cache(["old"]) }
        )
    }

    @Test func emptyCacheIsTheDefaultAndWhatAnEmptyReadShows() {
        let engine = states(of: dataSourceWithCache([]))
        #expect(engine.last == builder.cache(requirements: octocat, lastTimeFetched: env.date(50)))
        #expect(engine.last == builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) { $0.cacheEmpty() })
    }

    @Test func refreshingIsTheStateWhileAForcedRefreshRuns() {
        let dataSource = dataSourceWithCache()
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let engine = states(of: dataSource, refreshAt: 200)
        #expect(engine.count == 5)
        let refreshing = builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["old"])
            $0.fetching()
        }
        #expect(engine.dropFirst(2).first == refreshing)
    }

    @Test func refreshJustSucceededKeepsTheOldContentWithTheNewAgeThenTheNewCacheFollows() {
        let dataSource = dataSourceWithCache()
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        let engine = states(of: dataSource, refreshAt: 200)
        #expect(engine.count == 5)
        let justRefreshed = builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["old"])
            $0.successfulFetch(timeFetched: env.date(212))
        }
        #expect(engine.dropFirst(3).first == justRefreshed)
        #expect(
            engine.last == builder.cache(requirements: octocat, lastTimeFetched: env.date(212)) { $0.cache(["new"]) }
        )
    }

    @Test func refreshFailedKeepsTheCacheAndItsAge() {
        let dataSource = dataSourceWithCache()
        dataSource.respond { _ in env.failingFetch(TestError(7), after: 10) }
        let engine = states(of: dataSource, refreshAt: 200)
        #expect(engine.count == 4)
        let failed = builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["old"])
            $0.failedFetch(error: TestError(7))
        }
        #expect(engine.last == failed)
    }

    @Test func staleCacheNotReadYetAndRefreshingIsTheFirstStateOfATooOldTag() {
        let dataSource = dataSourceWithCache()
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        env.scheduler.advanceTo(10_000)
        let engine = states(of: dataSource)
        let staleRefreshing = builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.loadingCache()
            $0.fetching()
        }
        #expect(engine.first == staleRefreshing)
    }

    @Test func failedObservationOfTheCacheIsACacheReadError() {
        let dataSource = dataSourceWithCache()
        dataSource.failObservation(with: TestError(4))
        let engine = states(of: dataSource)
        let failed = builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.failedReadingCache(error: TestError(4))
        }
        #expect(failed.cacheReadError as? TestError == TestError(4))
        #expect(failed.refreshError == nil && !failed.isLoadingCache && failed.cache == nil)
        #expect(engine.last == failed)
    }

    // MARK: Teller-iOS's meanings

    @Test func aFirstFetchRunningIsRefreshingAsInTellerIOS() {
        let running = builder.noCache(requirements: octocat) { $0.fetchingFirstTime() }
        #expect(running.isFirstFetch)
        #expect(running.isRefreshing)
        #expect(running.isFetching)
        let idle = builder.noCache(requirements: octocat)
        #expect(!idle.isFirstFetch && !idle.isRefreshing)
    }

    @Test func aFailedFirstFetchCarriesItsErrorAsTheRefreshErrorAsInTellerIOS() {
        let failed = builder.noCache(requirements: octocat) { $0.failedFirstFetch(error: TestError(2)) }
        #expect(failed.errorDuringFirstFetch as? TestError == TestError(2))
        #expect(failed.refreshError as? TestError == TestError(2))
        #expect(failed.fetchError as? TestError == TestError(2))
        #expect(!failed.isRefreshing)
        #expect(builder.noCache(requirements: octocat).refreshError == nil)
    }

    @Test func aRefreshIsNeitherAFirstFetchNorAFirstFetchError() {
        let refreshing = builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["a"])
            $0.fetching()
        }
        #expect(refreshing.isRefreshing)
        #expect(!refreshing.isFirstFetch)
        let failed = builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["a"])
            $0.failedFetch(error: TestError(3))
        }
        #expect(failed.refreshError as? TestError == TestError(3))
        #expect(failed.errorDuringFirstFetch == nil)
    }

    // MARK: The comparisons can fail

    @Test func everyBuilderGivesADifferentState() {
        let age = env.date(50)
        let states = [
            builder.noCache(requirements: octocat),
            builder.noCache(requirements: octocat) { $0.fetchingFirstTime() },
            builder.noCache(requirements: octocat) { $0.failedFirstFetch(error: TestError(1)) },
            builder.noCache(requirements: octocat) { $0.successfulFirstFetch(timeFetched: age) },
            builder.cache(requirements: octocat, lastTimeFetched: age),
            builder.cache(requirements: octocat, lastTimeFetched: age) { $0.loadingCache() },
            builder.cache(requirements: octocat, lastTimeFetched: age) { $0.cache(["a"]) },
            builder.cache(requirements: octocat, lastTimeFetched: age) {
                $0.cache(["a"])
                $0.fetching()
            },
            builder.cache(requirements: octocat, lastTimeFetched: age) {
                $0.cache(["a"])
                $0.failedFetch(error: TestError(1))
            },
            builder.cache(requirements: octocat, lastTimeFetched: env.date(40)) {
                $0.cache(["a"])
                $0.successfulFetch(timeFetched: age)
            },
        ]
        for (index, state) in states.enumerated() {
            for (otherIndex, other) in states.enumerated() where otherIndex != index {
                #expect(state != other, "\(state) should differ from \(other)")
            }
        }
    }

    @Test func statesForOtherRequirementsOrErrorsDiffer() {
        let other = TestRequirements(username: "other")
        #expect(builder.noCache(requirements: octocat) != builder.noCache(requirements: other))
        let failedWithOne = builder.noCache(requirements: octocat) { $0.failedFirstFetch(error: TestError(1)) }
        let failedWithTwo = builder.noCache(requirements: octocat) { $0.failedFirstFetch(error: TestError(2)) }
        #expect(failedWithOne != failedWithTwo)
    }

    @Test func theLastCallOfEachKindWins() {
        let state = builder.cache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["a"])
            $0.fetching()
            $0.loadingCache()
            $0.failedFetch(error: TestError(1))
        }
        #expect(state.isLoadingCache)
        #expect(state.cache == nil)
        #expect(!state.isRefreshing)
        #expect(state.refreshError != nil)
    }

    @Test func dataStateIsTheOldNameOfTheSameBuilders() {
        let state: DataState<[String]> = DataState.testing.cache(requirements: octocat, lastTimeFetched: env.date(1)) {
            $0.cache(["a"])
        }
        #expect(
            state == CacheState.testing.cache(requirements: octocat, lastTimeFetched: env.date(1)) { $0.cache(["a"]) }
        )
        #expect(state.cache == ["a"])
        #expect(state.cacheAge == env.date(1))
    }
}

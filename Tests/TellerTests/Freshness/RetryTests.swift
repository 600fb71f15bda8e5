import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Retries with backoff through repositories on virtual time: one tick is one second, and the
/// policies have no jitter, so every retry lands on a known tick.
@Suite struct RetryTests {
    let octocat = TestRequirements(username: "octocat")
    /// Two retries, after 20 s and then 40 s.
    static func twoRetries() throws -> RetryPolicy {
        try RetryPolicy(maxRetries: 2, initialDelay: .seconds(20), maxDelay: .seconds(100))
    }

    /// A fetch that fails `failures` times with TestError(1), TestError(2)…, then succeeds.
    private func flakyFetch(
        _ env: VirtualTeller,
        failures: Int
    ) -> (TestRequirements) -> Single<FetchResponse<[String], any Error>> {
        let attempts = Locked(0)
        return { _ in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            return attempt <= failures
                ? env.failingFetch(TestError(attempt), after: 10) : env.fetch(["fetched on \(attempt)"], after: 10)
        }
    }

    private func observed(
        _ dataSource: InMemoryDataSource,
        _ env: VirtualTeller,
        at tick: Int = 100
    ) -> (TellerRepository<InMemoryDataSource>, TestableObserver<CacheState<[String]>>) {
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(tick) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        return (repository, states)
    }

    @Test func aFailedFirstFetchIsRetriedAfterTheBackoffAndTheStateSaysARetryIsPending() throws {
        let env = VirtualTeller(retryPolicy: try Self.twoRetries())
        let dataSource = InMemoryDataSource()
        dataSource.respond(with: flakyFetch(env, failures: 2))
        let (repository, states) = observed(dataSource, env)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 3)
        #expect(
            states.timeline == [
                "101: noCache, firstFetch",
                "113: noCache, firstFetch, retry at 132 after 1 failed: TestError(1)",
                "133: noCache, firstFetch",
                "145: noCache, firstFetch, retry at 184 after 2 failed: TestError(2)",
                "185: noCache, firstFetch",
                "197: cache unread age 196, justFinishedFirstFetch",
                "197: cache [\"fetched on 3\"] age 196",
            ]
        )
        let log = env.log.value
        #expect(
            log.contains("fetch for \"Repos for octocat\" failed (attempt 1), retrying in 20.0 seconds: TestError(1)")
        )
        #expect(log.contains("retrying the fetch for \"Repos for octocat\" (attempt 3)"))
    }

    @Test func whenEveryRetryFailsTheRefreshFailsOnceWithTheLastError() throws {
        let env = VirtualTeller(retryPolicy: try Self.twoRetries())
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond(with: flakyFetch(env, failures: 10))
        let (repository, states) = observed(dataSource, env)
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(200) { _ = try? repository.refresh(force: true).asObservable().subscribe(results) }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        #expect(dataSource.calls.fetches == 3)
        #expect(results.events == [.next(296, .failedError(error: TestError(3))), .completed(296)])
        #expect(states.timeline.last == "297: noCache, firstFetchError TestError(3)")
    }

    @Test func callersThatJoinedTheFetchWaitThroughItsRetriesAndGetOneResult() throws {
        let env = VirtualTeller(retryPolicy: try Self.twoRetries())
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond(with: flakyFetch(env, failures: 1))
        let (first, firstStates) = observed(dataSource, env)
        let (second, secondStates) = observed(dataSource, env)
        let firstResults = env.scheduler.createObserver(RefreshResult.self)
        let secondResults = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(200) { _ = try? first.refresh(force: true).asObservable().subscribe(firstResults) }
        // Joins while the retry waits: it is told at once.
        env.scheduler.scheduleAt(220) {
            _ = try? second.refresh(force: true).asObservable().subscribe(secondResults)
        }
        withExtendedLifetime((first, second)) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 2)
        #expect(firstResults.events == [.next(244, .successful), .completed(244)])
        #expect(secondResults.events == [.next(244, .successful), .completed(244)])
        #expect(firstStates.timeline.contains("213: noCache, firstFetch, retry at 232 after 1 failed: TestError(1)"))
        #expect(
            secondStates.timeline.contains("221: noCache, firstFetch, retry at 232 after 1 failed: TestError(1)"),
            "\(secondStates.timeline)"
        )
    }

    @Test func theLastCallerLeavingCancelsThePendingRetry() throws {
        let env = VirtualTeller(retryPolicy: try Self.twoRetries())
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond(with: flakyFetch(env, failures: 10))
        let (repository, states) = observed(dataSource, env)
        let call = SerialDisposable()
        env.scheduler.scheduleAt(200) { call.disposable = (try? repository.refresh(force: true).subscribe()) ?? call }
        env.scheduler.scheduleAt(220) { call.dispose() }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        #expect(dataSource.calls.fetches == 1)
        #expect(states.timeline.last == "221: noCache")
        #expect(env.log.value.contains { $0.hasPrefix("refresh cancelled for \"Repos for octocat\"") })
    }

    @Test func aRequirementsChangeCancelsThePendingRetry() throws {
        let env = VirtualTeller(retryPolicy: try Self.twoRetries())
        let dataSource = InMemoryDataSource()
        dataSource.respond { requirements in
            requirements == octocat ? env.failingFetch(TestError(1), after: 10) : env.fetch(["hubot data"], after: 10)
        }
        let (repository, states) = observed(dataSource, env)
        env.scheduler.scheduleAt(120) { repository.requirements = TestRequirements(username: "hubot") }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        // octocat once (its retry at 132 never runs), hubot once.
        #expect(dataSource.calls.fetches == 2)
        #expect(states.timeline.last == "133: cache [\"hubot data\"] age 132")
    }

    @Test func releasingTheRepositoryCancelsThePendingRetry() throws {
        let env = VirtualTeller(retryPolicy: try Self.twoRetries())
        let dataSource = InMemoryDataSource()
        dataSource.respond(with: flakyFetch(env, failures: 10))
        let repository = Locked<TellerRepository<InMemoryDataSource>?>(
            TellerRepository(dataSource: dataSource, teller: env.teller)
        )
        env.scheduler.scheduleAt(100) {
            repository.value?.requirements = octocat
            _ = repository.value?.observe().subscribe()
        }
        env.scheduler.scheduleAt(120) { repository.withLock { $0 = nil } }
        env.scheduler.advanceTo(10_000)
        #expect(dataSource.calls.fetches == 1)
    }

    @Test func aDataSourcesPolicyOverridesTheTellersOne() throws {
        let env = VirtualTeller(retryPolicy: .standard)
        let dataSource = InMemoryDataSource(retryPolicy: .never)
        dataSource.respond(with: flakyFetch(env, failures: 10))
        let (repository, _) = observed(dataSource, env)
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        #expect(dataSource.calls.fetches == 1)
        #expect(!env.log.value.contains { $0.contains("retrying") })
    }

    @Test func anErrorThePolicyDoesNotRetryFailsAtOnce() throws {
        let policy = try RetryPolicy(maxRetries: 3, initialDelay: .seconds(5)) { error in
            (error as? TestError)?.id != 1
        }
        let env = VirtualTeller(retryPolicy: policy)
        let dataSource = InMemoryDataSource()
        dataSource.respond(with: flakyFetch(env, failures: 10))
        let (repository, states) = observed(dataSource, env)
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        #expect(dataSource.calls.fetches == 1)
        #expect(states.timeline.last == "113: noCache, firstFetchError TestError(1)")
    }

    @Test func aSaveThatThrowsIsNotRetried() throws {
        let env = VirtualTeller(retryPolicy: try Self.twoRetries())
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.fetch(["new"], after: 10) }
        dataSource.failSaves(with: TestError(7))
        let (repository, _) = observed(dataSource, env)
        withExtendedLifetime(repository) { env.scheduler.advanceTo(10_000) }
        #expect(dataSource.calls.fetches == 1)
        #expect(dataSource.calls.saves == 1)
    }

    @Test func anAutomaticRefreshThatKeepsFailingIsRetriedAsThePolicySaysThenPauses() throws {
        let env = VirtualTeller(retryPolicy: try Self.twoRetries())
        let dataSource = InMemoryDataSource()
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: -10_000)
        dataSource.respond(with: flakyFetch(env, failures: 1_000))
        let (repository, states) = observed(dataSource, env)
        // The cache emits again later: no reason to start over.
        env.scheduler.scheduleAt(1_000) { dataSource.write(["written"], for: octocat) }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(50_000) }
        #expect(dataSource.calls.fetches == 3)
        #expect(states.timeline.last == "1002: cache [\"written\"] age -10000")
    }

    @Test func aTimedOutFetchIsRetried() throws {
        let env = VirtualTeller(fetchTimeout: .seconds(30), retryPolicy: try Self.twoRetries())
        let dataSource = InMemoryDataSource()
        let attempts = Locked(0)
        dataSource.respond { _ in
            attempts.withLock { $0 += 1 }
            return attempts.value == 1 ? .never() : env.fetch(["second"], after: 10)
        }
        let (repository, states) = observed(dataSource, env)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 2)
        // Timed out at 130 (30 s after the fetch was subscribed at 100), retried 20 s later.
        #expect(states.timeline.contains { $0.hasPrefix("131: noCache, firstFetch, retry at 150 after 1 failed") })
        #expect(states.events.last?.value.element?.cache == ["second"])
    }

    @Test func aPagingRepositoryRetriesItsFirstPage() throws {
        let env = VirtualTeller(retryPolicy: try Self.twoRetries())
        let paged = InMemoryPagedDataSource<PageNumber, Void>()
        let attempts = Locked(0)
        let server = env.pageNumberServer([["a", "b"], ["c"]])
        paged.respond { page in
            attempts.withLock { $0 += 1 }
            return attempts.value == 1 ? env.failingPage(TestError(1), after: 10, as: Void.self) : server(page)
        }
        let (repository, states) = env.pagingRepository(paged, firstPage: PageNumber(number: 1))
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(paged.fetches == ["fetch page 1", "fetch page 1"])
        #expect(states.timeline.contains { $0.contains("retry at 132 after 1 failed: TestError(1)") })
        #expect(states.events.last?.value.element?.cache?.cache == ["a", "b"])
    }
}

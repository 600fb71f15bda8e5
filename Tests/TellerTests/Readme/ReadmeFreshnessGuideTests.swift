import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's guide "Keeping data fresh: invalidation, retries and triggers". Its snippets
// extend the Quick start's `ReposDataSource`, so this file has its own copy of that class, with a
// fetch the tests control; the snippets' extensions give it a retry policy and an interval.
// Teller.docc's KeepingDataFresh article shows the same snippets.

private struct ReposRequirements: RepositoryRequirements {
    let username: String
    var tag: String { "Repos for \(username)" }
}

private final class ReposDataSource: RepositoryDataSource, Sendable {
    typealias Cache = [String]
    typealias Requirements = ReposRequirements
    typealias FetchResult = [String]
    typealias FetchError = any Error

    let maxAgeOfCache: Period
    let saved = BehaviorSubject<[String]>(value: [])
    let fetches = Locked(0)
    let fetch: Locked<@Sendable (Int) -> Single<FetchResponse<[String], any Error>>>

    init(
        maxAgeOfCache: Period = Period(unit: 5, component: .hour),
        fetch: @escaping @Sendable (Int) -> Single<FetchResponse<[String], any Error>>
    ) {
        self.maxAgeOfCache = maxAgeOfCache
        self.fetch = Locked(fetch)
    }

    func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[String], any Error>> {
        let attempt = fetches.withLock { count -> Int in
            count += 1
            return count
        }
        return fetch.value(attempt)
    }

    func saveCache(_ cache: [String], requirements: ReposRequirements) throws {
        saved.onNext(cache)
    }

    func observeCache(requirements: ReposRequirements) -> Observable<[String]> {
        saved.asObservable()
    }

    func isCacheEmpty(_ cache: [String], requirements: ReposRequirements) -> Bool {
        cache.isEmpty
    }
}

// The snippets' extensions.
extension ReposDataSource {
    var retryPolicy: RetryPolicy? { .standard }  // its own: 3 retries, after 1, 2 and 4 seconds
}

extension ReposDataSource {
    var refreshInterval: RxTimeInterval? { .seconds(60) }
}

/// Stands in for the app's reachability source.
private final class Reachability: Sendable {
    private let handler = Locked<(@Sendable () -> Void)?>(nil)

    var whenReconnected: (@Sendable () -> Void)? {
        get { handler.value }
        set { handler.withLock { $0 = newValue } }
    }
}

private func invalidationSnippet(_ teller: Teller) {
    teller.invalidate(tag: ReposRequirements(username: "octocat").tag)
}

private func branchSnippet(_ teller: Teller, userID: String) {
    teller.invalidate(tagsUnder: "users/\(userID)")  // users/42 and users/42/…, never users/420
    teller.clear(tagsUnder: TagPrefix(components: ["users", userID]))
}

private func retryPolicySnippet() throws -> Teller {
    let teller = Teller(
        retryPolicy: try RetryPolicy(maxRetries: 5, initialDelay: .seconds(2), maxDelay: .seconds(60), jitter: 0.2)
    )
    return teller
}

private func pendingRetrySnippet(_ state: CacheState<[String]>, print: (String) -> Void) {
    if let retry = state.pendingRetry {
        print("Attempt \(retry.failedAttempts) failed (\(retry.lastError)); trying again at \(retry.nextAttemptAt)")
    }
}

private func triggersSnippet(_ teller: Teller, reachability: Reachability) {
    teller.appDidBecomeActive()  // UIKit and AppKit apps get this call for free
    reachability.whenReconnected = { teller.networkDidBecomeAvailable() }
}

@Suite struct ReadmeFreshnessGuideTests {
    let env = VirtualTeller()
    fileprivate let octocat = ReposRequirements(username: "octocat")

    /// A repository showing octocat's repos, fetched at tick `fetchedAt`, set and observed at 100
    /// until `until`.
    private func observed(
        _ dataSource: ReposDataSource,
        fetchedAt: Int = 50,
        until: Int = 1_000_000,
        onState: @escaping @Sendable (CacheState<[String]>) -> Void = { _ in }
    ) -> TellerRepository<ReposDataSource> {
        dataSource.saved.onNext(["teller"])
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(fetchedAt)), forTag: octocat.tag)
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let observation = SerialDisposable()
        env.scheduler.scheduleAt(100) { [octocat] in
            repository.requirements = octocat
            observation.disposable = repository.observe().subscribe(onNext: onState)
        }
        env.scheduler.scheduleAt(until) { observation.dispose() }
        return repository
    }

    private func succeeding(_ env: VirtualTeller) -> @Sendable (Int) -> Single<FetchResponse<[String], any Error>> {
        { attempt in env.fetch(["fetch \(attempt)"], after: 5) }
    }

    @Test func invalidatingRefreshesTheObservedRepositoryAtOnce() throws {
        let dataSource = ReposDataSource(fetch: succeeding(env))
        let repository = observed(dataSource)
        env.scheduler.scheduleAt(110) { invalidationSnippet(env.teller) }
        env.scheduler.scheduleAt(130) { #expect(dataSource.fetches.value == 1) }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(140) }
        #expect(try dataSource.saved.value() == ["fetch 1"])
    }

    @Test func theBranchSnippetForgetsTheUsersOwnTagsOnly() {
        let tags = ["users/42", "users/42/posts", "users/420"]
        for tag in tags { env.store.setMetadata(FetchMetadata(lastFetched: env.date(0)), forTag: tag) }
        branchSnippet(env.teller, userID: "42")
        #expect(tags.filter { env.store.metadata(forTag: $0) != nil } == ["users/420"])
    }

    @Test func theTellersPolicyIsValidAndTheDataSourcesOwnRetriesThreeTimes() throws {
        #expect(try retryPolicySnippet().retryPolicy.maxRetries == 5)
        let env = env
        let dataSource = ReposDataSource { _ in env.failingFetch(TestError(1), after: 5) }
        let printed = PrintedLines(clock: { [scheduler = env.scheduler] in scheduler.clock })
        let repository = observed(dataSource, fetchedAt: -100_000, until: 150) { state in
            pendingRetrySnippet(state, print: printed.record)
        }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(140) }
        // The first fetch at 101 fails at 107; retries after 1, 2 and 4 s with 10% jitter at most.
        #expect(dataSource.fetches.value == 4)
        #expect(printed.value.count == 3)
        #expect(
            printed.value.first?.contains(": Attempt 1 failed (TestError(1)); trying again at 1970-01-01 00:01:")
                == true,
            "\(printed.value)"
        )
    }

    @Test func theAppBecomingActiveAndTheNetworkComingBackRefreshAStaleCache() throws {
        // Fresh for 10 s, observed from 100 to 150, before the interval's first fetch at 160.
        let dataSource = ReposDataSource(maxAgeOfCache: Period(unit: 10, component: .second), fetch: succeeding(env))
        let reachability = Reachability()
        let repository = observed(dataSource, fetchedAt: 95, until: 150)
        env.scheduler.scheduleAt(104) { #expect(dataSource.fetches.value == 0) }
        // Stale from 105: the app becoming active fetches (saved by 127), and the network coming
        // back once that is stale again fetches again.
        env.scheduler.scheduleAt(120) { triggersSnippet(env.teller, reachability: reachability) }
        env.scheduler.scheduleAt(125) { #expect(dataSource.fetches.value == 1) }
        env.scheduler.scheduleAt(140) { reachability.whenReconnected?() }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(1_000) }
        #expect(dataSource.fetches.value == 2)
        #expect(try dataSource.saved.value() == ["fetch 2"])
    }

    @Test func theIntervalFetchesEveryMinuteWhileObserved() {
        let dataSource = ReposDataSource(fetch: succeeding(env))
        // Observed from 100 to 300: fetches at 160, 220 and 280.
        let repository = observed(dataSource, until: 300)
        withExtendedLifetime(repository) { env.scheduler.advanceTo(1_000) }
        #expect(dataSource.fetches.value == 3)
    }
}

import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's guide "Turning automatic refresh off". Its snippet extends the Quick start's
// `ReposDataSource`, so this file has its own copy of that class (around the snippet; the
// guides' shared data source must keep automatic refresh on).

private struct ReposRequirements: RepositoryRequirements {
    let username: String
    var tag: String { "Repos for \(username)" }
}

private final class ReposDataSource: RepositoryDataSource, Sendable {
    typealias Cache = [String]
    typealias Requirements = ReposRequirements
    typealias FetchResult = [String]
    typealias FetchError = any Error

    let maxAgeOfCache = Period(unit: 5, component: .hour)
    let saved = BehaviorSubject<[String]>(value: [])
    let fetches = Locked(0)

    func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[String], any Error>> {
        fetches.withLock { $0 += 1 }
        return .just(.success(["teller", "teller-android"]))
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

// The snippet.
extension ReposDataSource {
    var automaticallyRefresh: Bool { false }
}

@Suite struct ReadmeAutomaticRefreshOffTests {
    let env = VirtualTeller()

    @Test func tellerFetchesOnlyWhenAsked() {
        let dataSource = ReposDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = ReposRequirements(username: "octocat")
            _ = repository.observe().subscribe(states)
        }
        let fetchesBeforeRefresh = Locked(-1)
        env.scheduler.scheduleAt(200) {
            fetchesBeforeRefresh.withLock { $0 = dataSource.fetches.value }
            _ = try? repository.refresh(force: false).asObservable().subscribe(results)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(!dataSource.automaticallyRefresh)
        #expect(fetchesBeforeRefresh.value == 0)
        let first = states.events.first?.value.element
        #expect(first.map { !$0.cacheExists && !$0.isFirstFetch } == true)
        // `maxAgeOfCache` still decides: no cache, so `refresh(force: false)` fetches.
        #expect(results.events.first?.value.element == .successful)
        #expect(dataSource.fetches.value == 1)
        #expect(states.events.last?.value.element?.cache == ["teller", "teller-android"])
    }
}

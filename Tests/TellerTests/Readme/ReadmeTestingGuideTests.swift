import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's guide "Testing your app": its Swift Testing test verbatim (inside this suite), and
// its `initState` snippet in a function (around the snippet: the function and its parameters).

private typealias ReposRequirements = GuideReposRequirements
private typealias ReposDataSource = GuideReposDataSource

private func initStateSnippet(_ repository: TellerRepository<ReposDataSource>, requirements: ReposRequirements) {
    TellerRepository.testing.initState(repository: repository, requirements: requirements) {
        $0.cache(["teller"]) { $0.cacheTooOld() }  // or $0.noCache(), $0.cacheEmpty { … }
    }
    repository.requirements = requirements  // or let the code under test set them: the refresh starts now
}

@Suite struct ReadmeTestingGuideTests {
    @Test func showsTheCachedReposWhileRefreshing() throws {
        let requirements = ReposRequirements(username: "octocat")
        let refreshing = CacheState<[String]>.testing.cache(requirements: requirements, lastTimeFetched: Date()) {
            $0.cache(["teller"])
            $0.fetching()
        }
        let repository = TellerRepositoryMock(dataSource: ReposDataSource())
        repository.observeClosure = { .just(refreshing) }
        repository.refreshClosure = { _ in RefreshResult.testing.successful() }

        // Hand `repository` to the code under test; here the test uses it directly.
        repository.requirements = requirements
        #expect(try repository.observe().toBlocking().first()?.isRefreshing == true)
        #expect(try repository.refresh(force: true).toBlocking().first() == .successful)
        #expect(repository.refreshInvocations == [true])
    }

    @Test func initStateStartsARealRepositoryFromATooOldCacheWhichItRefreshes() {
        let env = VirtualTeller()
        let dataSource = ReposDataSource(fetch: { [env] in env.fetch(["teller", "teller-android"], after: 10) })
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let requirements = ReposRequirements(username: "octocat")
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100_000) {
            initStateSnippet(repository, requirements: requirements)
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }

        let seen = states.events.compactMap(\.value.element)
        #expect(repository.requirements?.username == "octocat")
        #expect(seen.contains { $0.cache == ["teller"] && $0.isRefreshing })
        #expect(seen.last?.cache == ["teller", "teller-android"])
        #expect(dataSource.fetchCount == 1)
    }
}

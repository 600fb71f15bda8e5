import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A repository over a ``CodableRepositoryDataSource``: the states an app sees when the cache
/// lives in a ``FileCacheStore``, on virtual time.
@Suite struct CodableRepositoryDataSourceTests {
    let env = VirtualTeller()
    let folder = TemporaryFolder()
    let octocat = TestRequirements(username: "octocat")
    let levi = TestRequirements(username: "levi")

    private func makeStore(maxUnusedAge: Period? = nil) throws -> FileCacheStore<[String]> {
        try FileCacheStore<[String]>(directory: folder.url, maxUnusedAge: maxUnusedAge, teller: env.teller)
    }

    @Test func theFirstFetchIsSavedToTheStoreAndARelaunchShowsItWithoutFetching() throws {
        defer { folder.remove() }
        let dataSource = CodableReposDataSource(cacheStore: try makeStore())
        dataSource.fetch = { _, _ in env.fetch(["a", "b"], after: 10) }
        let (repository, states) = env.repository(dataSource, showing: octocat)
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(
            states.timeline == [
                "101: noCache, firstFetch",
                "113: cache unread age 112, justFinishedFirstFetch",
                "113: cache [\"a\", \"b\"] age 112",
            ]
        )
        #expect(dataSource.fetchCount == 1)
        #expect(dataSource.cacheStore.load(tag: octocat.tag) == ["a", "b"])

        // A relaunch: a new store and data source on the same folder, the same metadata.
        let relaunched = CodableReposDataSource(cacheStore: try makeStore())
        let (again, shown) = env.repository(relaunched, showing: octocat, at: 200)
        withExtendedLifetime(again) { env.scheduler.start() }
        #expect(shown.timeline == ["201: cache unread age 112", "201: cache [\"a\", \"b\"] age 112"])
        #expect(relaunched.fetchCount == 0)
    }

    /// 100: shows octocat (fetched at 112) · 200: switches to levi, octocat is unused from then ·
    /// 4 000: an hour later a save evicts octocat and Teller forgets its fetch time · 4 100: back
    /// to octocat, which is fetched again instead of shown as an empty cache fetched at 112.
    @Test func anEvictedTagIsFetchedAgainInsteadOfShownAsAnEmptyFreshCache() throws {
        defer { folder.remove() }
        let store = try makeStore(maxUnusedAge: Period(unit: 1, component: .hour))
        let dataSource = CodableReposDataSource(cacheStore: store)
        dataSource.fetch = { requirements, _ in env.fetch([requirements.username], after: 10) }
        let (repository, states) = env.repository(dataSource, showing: octocat)
        env.scheduler.scheduleAt(200) { repository.requirements = levi }
        env.scheduler.scheduleAt(4_000) { try? store.save(["someone else"], tag: "another tag") }
        env.scheduler.scheduleAt(4_100) { repository.requirements = octocat }
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(
            states.timeline == [
                "101: noCache, firstFetch",
                "113: cache unread age 112, justFinishedFirstFetch",
                "113: cache [\"octocat\"] age 112",
                "201: noCache, firstFetch",
                "213: cache unread age 212, justFinishedFirstFetch",
                "213: cache [\"levi\"] age 212",
                "4101: noCache, firstFetch",
                "4113: cache unread age 4112, justFinishedFirstFetch",
                "4113: cache [\"octocat\"] age 4112",
            ]
        )
        #expect(dataSource.fetchCount == 3)
        #expect(env.log.value.contains { $0.contains("evicted the cache of \"Repos for octocat\"") })
        // levi was in use (observed) at 4 000, so it stayed; at 4 112 it no longer was.
        #expect(env.log.value.contains { $0.contains("evicted the cache of \"Repos for levi\"") })
    }

    /// 100: shows octocat · 300: its file is removed (another process evicted it, the system
    /// purged the caches) · 301: the repository shows noCache and fetches it again.
    @Test func aCacheFileThatDisappearsWhileShownIsFetchedAgain() throws {
        defer { folder.remove() }
        let store = try makeStore()
        let dataSource = CodableReposDataSource(cacheStore: store)
        dataSource.fetch = { _, earlier in env.fetch([earlier == 0 ? "a" : "b"], after: 10) }
        let (repository, states) = env.repository(dataSource, showing: octocat)
        env.scheduler.scheduleAt(300) { try? store.remove(tag: octocat.tag) }
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(
            states.timeline == [
                "101: noCache, firstFetch",
                "113: cache unread age 112, justFinishedFirstFetch",
                "113: cache [\"a\"] age 112",
                "301: noCache, firstFetch",
                "313: cache unread age 312, justFinishedFirstFetch",
                "313: cache [\"b\"] age 312",
            ]
        )
        #expect(store.load(tag: octocat.tag) == ["b"])
        #expect(env.log.value.contains { $0.contains("There is no readable cache for \"Repos for octocat\"") })
    }

    @Test func aCorruptCacheFileIsReportedAndFetchedAgainOnLaunch() throws {
        defer { folder.remove() }
        let store = try makeStore()
        try store.save(["a"], tag: octocat.tag)
        env.markFetched(octocat, at: 0)
        let file = try #require(folder.cacheFiles().first)
        try Data("not json".utf8).write(to: file)
        let dataSource = CodableReposDataSource(cacheStore: store)
        dataSource.fetch = { _, _ in env.fetch(["fresh"], after: 10) }
        let (repository, states) = env.repository(dataSource, showing: octocat)
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(
            states.timeline == [
                "101: cache unread age 0",
                "101: noCache, firstFetch",
                "114: cache unread age 113, justFinishedFirstFetch",
                "114: cache [\"fresh\"] age 113",
            ]
        )
        #expect(env.log.value.contains { $0.contains("could not be decoded") })
        #expect(store.load(tag: octocat.tag) == ["fresh"])
    }

    @Test func aSaveThatCannotWriteIsTheRefreshsError() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.child("cache"), teller: env.teller)
        try FileManager.default.removeItem(at: folder.child("cache"))
        try Data().write(to: folder.child("cache"))
        let dataSource = CodableReposDataSource(cacheStore: store)
        dataSource.fetch = { _, _ in env.fetch(["a"], after: 10) }
        let (repository, states) = env.repository(dataSource, showing: octocat)
        withExtendedLifetime(repository) { env.scheduler.start() }

        let last = try #require(states.events.last?.value.element)
        #expect(last.cacheExists == false)
        let error = try #require(last.errorDuringFirstFetch as? FileCacheStoreError)
        guard case .cannotWrite(let tag, _, _) = error else {
            Issue.record("expected cannotWrite, got \(error)")
            return
        }
        #expect(tag == octocat.tag)
        #expect(env.store.metadata(forTag: octocat.tag) == nil)
    }

    @Test func anEmptyCollectionIsAnEmptyCache() throws {
        defer { folder.remove() }
        let dataSource = CodableReposDataSource(cacheStore: try makeStore())
        dataSource.fetch = { _, _ in env.fetch([], after: 10) }
        let (repository, states) = env.repository(dataSource, showing: octocat)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline.last == "113: cache empty age 112")
    }

    @Test func aValueThatIsNotACollectionIsNeverEmpty() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<Profile>(directory: folder.url, teller: env.teller)
        let dataSource = ProfileDataSource(cacheStore: store)
        #expect(!dataSource.isCacheEmpty(Profile(name: ""), requirements: octocat))
        let (repository, states) = env.repository(dataSource, showing: octocat)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.events.last?.value.element?.cache == Profile(name: "octocat"))
    }
}

private struct Profile: Codable, Sendable, Equatable {
    let name: String
}

/// The smallest data source there is: the fetch and the maximum age.
private final class ProfileDataSource: CodableRepositoryDataSource {
    let maxAgeOfCache = Period(unit: 1, component: .hour)
    let cacheStore: FileCacheStore<Profile>

    init(cacheStore: FileCacheStore<Profile>) {
        self.cacheStore = cacheStore
    }

    func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<Profile, any Error>> {
        .just(.success(Profile(name: requirements.username)))
    }
}

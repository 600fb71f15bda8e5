import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's guide "A ready file cache for Codable data". Its data source is copied verbatim;
// the snippets that make the store in the user's caches directory and remove it on sign-out are
// compiled in functions and never run (they would touch the files of the user running the tests).

private typealias ReposRequirements = GuideReposRequirements

private final class ReposDataSource: CodableRepositoryDataSource {
    let maxAgeOfCache = Period(unit: 5, component: .hour)
    let cacheStore: FileCacheStore<[String]>

    init(cacheStore: FileCacheStore<[String]>) {
        self.cacheStore = cacheStore
    }

    func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[String], any Error>> {
        .just(.success(["teller", "teller-android"]))  // your network call goes here
    }
}

/// The store and repository (around the snippet: the function and its return).
private func storeSnippet() throws -> (FileCacheStore<[String]>, TellerRepository<ReposDataSource>) {
    let store = try FileCacheStore<[String]>(
        directory: FileCacheStore<[String]>.defaultDirectory(named: "repos"),  // under the caches directory
        maxTotalBytes: 20_000_000,  // past 20 MB, the least recently used lists go
        maxUnusedAge: Period(unit: 30, component: .day)  // and so do lists nobody opened for 30 days
    )
    let repository = TellerRepository(dataSource: ReposDataSource(cacheStore: store))
    return (store, repository)
}

/// On sign-out (around the snippet: the function and its parameter).
private func signOutSnippet(store: FileCacheStore<[String]>) throws {
    try store.removeAll()
    Teller.shared.clear()
}

@Suite struct ReadmeCodableCacheGuideTests {
    let env = VirtualTeller()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("teller-readme-\(UUID().uuidString)")

    @Test func theGuidesDataSourceFetchesIntoTheStoreAndShowsTheRepos() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try FileCacheStore<[String]>(directory: folder, teller: env.teller)
        let (repository, states) = env.repository(
            ReposDataSource(cacheStore: store),
            showing: ReposRequirements(username: "octocat")
        )
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(states.events.last?.value.element?.cache == ["teller", "teller-android"])
        #expect(store.load(tag: "Repos for octocat") == ["teller", "teller-android"])
        // After sign-out there is nothing left to show.
        try store.removeAll()
        env.teller.clear()
        #expect(store.load(tag: "Repos for octocat") == nil)
    }
}

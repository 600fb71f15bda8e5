import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The code of Sources/Teller/Teller.docc/PersistentCodableCache.md, as written there (`private`
// added, so the names cannot clash with other tests').

private struct Repo: Codable, Sendable {
    let id: Int
    let name: String
}

private struct ReposRequirements: RepositoryRequirements {
    let username: String
    var tag: String { "Repos for \(username)" }
}

private final class ReposDataSource: CodableRepositoryDataSource {
    let maxAgeOfCache = Period(unit: 5, component: .hour)
    let cacheStore: FileCacheStore<[Repo]>

    init(cacheStore: FileCacheStore<[Repo]>) {
        self.cacheStore = cacheStore
    }

    func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[Repo], any Error>> {
        .just(.success([Repo(id: 1, name: "teller")]))  // your network call goes here
    }
}

private func makeReposRepository(teller: Teller = .shared) throws -> TellerRepository<ReposDataSource> {
    let store = try FileCacheStore<[Repo]>(
        directory: FileCacheStore<[Repo]>.defaultDirectory(named: "repos"),
        maxTotalBytes: 20_000_000,  // least recently used lists go past 20 MB
        maxUnusedAge: Period(unit: 30, component: .day),  // and lists nobody opened for 30 days
        teller: teller
    )
    return TellerRepository(dataSource: ReposDataSource(cacheStore: store), teller: teller)
}

private struct ReposPage: PagingRepositoryRequirements {
    let number: Int
}

/// The article's paging snippet, in a data source of its own.
private final class PagedReposDataSource: PagingRepositoryDataSource {
    typealias PagingCache = [Repo]
    typealias Requirements = ReposRequirements
    typealias PagingRequirements = ReposPage
    typealias NextPageRequirements = Void
    typealias PagingFetchResult = [Repo]
    typealias FetchError = any Error

    let maxAgeOfCache = Period(unit: 5, component: .hour)
    let store: FileCacheStore<[[Repo]]>

    init(store: FileCacheStore<[[Repo]]>) {
        self.store = store
    }

    func getNextPagePagingRequirements(currentPagingRequirements: ReposPage, nextPageRequirements: Void?) -> ReposPage {
        ReposPage(number: currentPagingRequirements.number + 1)
    }

    func fetchFreshCache(
        requirements: ReposRequirements,
        pagingRequirements: ReposPage
    ) -> Single<FetchResponse<FetchResult, any Error>> {
        let page = [Repo(id: pagingRequirements.number, name: "page \(pagingRequirements.number)")]
        let response = PagedFetchResponse(areMorePages: true, nextPageRequirements: (), fetchResponse: page)
        return .just(.success(response))
    }

    func saveCache(_ page: [Repo], requirements: ReposRequirements, pagingRequirements: ReposPage) throws {
        try store.update(tag: requirements.tag) { pages in pages = (pages ?? []) + [page] }
    }

    func deleteCache(_ requirements: ReposRequirements) {
        try? store.remove(tag: requirements.tag)
    }

    func persistOnlyFirstPage(requirements: ReposRequirements) {
        try? store.update(tag: requirements.tag) { pages in pages = pages.map { Array($0.prefix(1)) } }
    }

    func observeCache(requirements: ReposRequirements, pagingRequirements: ReposPage) -> Observable<[Repo]> {
        let shown = pagingRequirements.number
        return store.observe(tag: requirements.tag).map { pages in Array((pages ?? []).prefix(shown).joined()) }
    }

    func isCacheEmpty(_ cache: [Repo], requirements: ReposRequirements, pagingRequirements: ReposPage) -> Bool {
        cache.isEmpty
    }
}

@Suite struct DocsPersistentCodableCacheTests {
    let env = VirtualTeller()
    let folder = TemporaryFolder()

    @Test func everySwiftSnippetOfTheArticleIsInThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/Teller/Teller.docc/PersistentCodableCache.md"),
            encoding: .utf8
        )
        let source = Self.normalized(try String(contentsOf: here, encoding: .utf8))
        let snippets = article.components(separatedBy: "```swift\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
        #expect(snippets.count == 2)
        for snippet in snippets {
            #expect(source.contains(Self.normalized(snippet)), "not in this file: \(snippet.prefix(60))")
        }
    }

    @Test func theArticlesDataSourceFetchesSavesAndShowsTheRepos() throws {
        defer { folder.remove() }
        // `makeReposRepository` as the article writes it, but in a temporary folder.
        let store = try FileCacheStore<[Repo]>(directory: folder.url, teller: env.teller)
        let (repository, states) = env.repository(
            ReposDataSource(cacheStore: store),
            showing: ReposRequirements(username: "octocat")
        )
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(states.events.last?.value.element?.cache?.map(\.name) == ["teller"])
        #expect(store.load(tag: "Repos for octocat")?.map(\.id) == [1])
    }

    @Test func theArticlesPagingDataSourceAppendsPagesInOneFile() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[[Repo]]>(directory: folder.url, teller: env.teller)
        let repository = TellerPagingRepository(
            dataSource: PagedReposDataSource(store: store),
            firstPageRequirements: ReposPage(number: 1),
            teller: env.teller
        )
        let states = env.scheduler.createObserver(CacheState<PagedCache<[Repo]>>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = ReposRequirements(username: "octocat")
            _ = repository.observe().subscribe(states)
        }
        env.scheduler.scheduleAt(200) { repository.goToNextPage() }
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(states.events.last?.value.element?.cache?.cache.map(\.name) == ["page 1", "page 2"])
        #expect(store.load(tag: "Repos for octocat")?.map { $0.map(\.id) } == [[1], [2]])
    }

    private static func normalized(_ code: String) -> String {
        code.replacingOccurrences(of: "private ", with: "").filter { !$0.isWhitespace }
    }
}

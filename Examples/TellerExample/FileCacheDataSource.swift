import Foundation
import Teller
import TellerRx

/// Which list to show: the repos of one source. The tag names the source, so switching
/// between the simulated server and a `--url` keeps two caches with two ages.
struct ReposRequirements: RepositoryRequirements {
    let source: String

    var tag: String {
        "Repos from \(source)"
    }
}

/// Which page to fetch: page numbers starting at 1, as GitHub's API counts them.
struct ReposPaging: PagingRepositoryRequirements {
    let page: Int
}

/// Tells Teller how to fetch pages of repos from a `ReposAPI` and keep them in a JSON file.
///
/// The file holds, per tag, the list of pages saved so far: `{"Repos from …": [[repo, …], …]}`.
/// A subject holds the same in memory so that `observeCache` emits every change; an app
/// would observe its database instead. Teller calls the writing members (`saveCache`,
/// `deleteCache`, `persistOnlyFirstPage`) one at a time, so they need no lock of their own.
final class FileCacheDataSource: PagingRepositoryDataSource {
    typealias PagingCache = [Repo]
    typealias Requirements = ReposRequirements
    typealias PagingRequirements = ReposPaging
    /// A page number needs nothing from the previous page.
    typealias NextPageRequirements = Void
    typealias PagingFetchResult = [Repo]
    typealias FetchError = any Error

    /// Younger than this, `r` is skipped (try `f`); older, Teller refreshes on its own too.
    let maxAgeOfCache = Period(unit: 1, component: .minute)

    private let api: any ReposAPI
    private let file: URL
    private let pages: BehaviorSubject<[String: [[Repo]]]>

    init(api: any ReposAPI, file: URL) {
        self.api = api
        self.file = file
        // A missing or unreadable file is an empty cache. Teller still knows from its metadata
        // that a cache was fetched, and shows "cache is empty" until the refresh it starts.
        let saved = (try? JSONDecoder().decode([String: [[Repo]]].self, from: Data(contentsOf: file))) ?? [:]
        pages = BehaviorSubject(value: saved)
    }

    func fetchFreshCache(
        requirements: ReposRequirements,
        pagingRequirements: ReposPaging
    ) -> Single<FetchResponse<FetchResult, any Error>> {
        // A failed Single is a failed fetch: Teller shows the error and keeps the cache.
        api.repos(page: pagingRequirements.page).map { page in
            .success(
                PagedFetchResponse(
                    areMorePages: page.areMorePages,
                    nextPageRequirements: nil,
                    fetchResponse: page.repos
                )
            )
        }
    }

    func getNextPagePagingRequirements(
        currentPagingRequirements: ReposPaging,
        nextPageRequirements: Void?
    ) -> ReposPaging {
        ReposPaging(page: currentPagingRequirements.page + 1)
    }

    func saveCache(_ cache: [Repo], requirements: ReposRequirements, pagingRequirements: ReposPaging) throws {
        // Append: Teller deletes the old pages itself before it saves a new first page.
        try update { $0[requirements.tag, default: []].append(cache) }
    }

    func deleteCache(_ requirements: ReposRequirements) {
        try? update { $0[requirements.tag] = nil }
    }

    func persistOnlyFirstPage(requirements: ReposRequirements) {
        try? update { $0[requirements.tag] = $0[requirements.tag].map { Array($0.prefix(1)) } }
    }

    func observeCache(requirements: ReposRequirements, pagingRequirements: ReposPaging) -> Observable<[Repo]> {
        let tag = requirements.tag
        let shown = pagingRequirements.page
        return pages.map { pages in Array((pages[tag] ?? []).prefix(shown).joined()) }
    }

    func isCacheEmpty(_ cache: [Repo], requirements: ReposRequirements, pagingRequirements: ReposPaging) -> Bool {
        cache.isEmpty
    }

    /// Changes the pages, writes the file (atomically: a crash leaves the old or the new file),
    /// then tells observers.
    private func update(_ change: (inout [String: [[Repo]]]) -> Void) throws {
        var all = try pages.value()
        change(&all)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.encoder.encode(all).write(to: file, options: .atomic)
        pages.onNext(all)
    }

    /// Indented, so the cache file is easy to read.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }()
}

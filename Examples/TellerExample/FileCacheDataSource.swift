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

/// Tells Teller how to fetch pages of repos from a `ReposAPI` and keep them in Teller's
/// `FileCacheStore`.
///
/// The store keeps one file per tag holding the pages saved so far (`[[Repo]]`), and its
/// `observe(tag:)` emits after every change, so this class only says what each member does to
/// a tag's pages, and `applyPendingWrites` shows the stars waiting in the outbox on top of
/// them. Teller calls the writing members (`saveCache`, `deleteCache`,
/// `persistOnlyFirstPage`) one at a time; `update` makes each change one locked step anyway.
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
    private let store: FileCacheStore<[[Repo]]>

    init(api: any ReposAPI, store: FileCacheStore<[[Repo]]>) {
        self.api = api
        self.store = store
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
        try store.update(tag: requirements.tag) { pages in pages = (pages ?? []) + [cache] }
    }

    func deleteCache(_ requirements: ReposRequirements) {
        // A failure is in the log; the first page saved next replaces the file anyway.
        try? store.remove(tag: requirements.tag)
    }

    func persistOnlyFirstPage(requirements: ReposRequirements) {
        try? store.update(tag: requirements.tag) { pages in pages = pages.map { Array($0.prefix(1)) } }
    }

    func observeCache(requirements: ReposRequirements, pagingRequirements: ReposPaging) -> Observable<[Repo]> {
        // No file (or an unreadable one, which the store reports) is an empty cache. Teller still
        // knows from its metadata that a cache was fetched, and shows "cache is empty" until the
        // refresh it starts on launch.
        let shown = pagingRequirements.page
        return store.observe(tag: requirements.tag).map { pages in Array((pages ?? []).prefix(shown).joined()) }
    }

    func applyPendingWrites(_ writes: [OutboxRecord], to cache: [Repo]?, requirements: ReposRequirements) -> [Repo]? {
        // The stored repos stay the server's; the stars not read back from it yet go on top.
        cache.map { StarEdit.applying(StarEdit.decoded(from: writes), to: $0) }
    }

    func isCacheEmpty(_ cache: [Repo], requirements: ReposRequirements, pagingRequirements: ReposPaging) -> Bool {
        cache.isEmpty
    }
}

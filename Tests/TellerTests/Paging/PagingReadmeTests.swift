import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The Pagination section of Teller-iOS's README, with `import RxSwift` swapped for our modules.
// Moya is replaced by a plain `Single` and UserDefaults by an in-memory store; every other change
// is marked `// README deviation: …`.

// README deviation: `private` on each README declaration, so they cannot clash with other tests.
// README deviation: the README's requirements and model from its getting-started section.
private class ReposRepositoryRequirements: RepositoryRequirements {
    var tag: ReposRepositoryRequirements.Tag {
        return "Repos for \(username)"
    }

    let username: String

    init(username: String) {
        self.username = username
    }
}

private struct Repo: Codable {
    var id: Int!
    var name: String!
}

// `PagingRepositoryRequirements` is a special object used to understand how to fetch pages of data from a network.
private struct ReposPagingRequirements: PagingRepositoryRequirements {
    let pageNumber: Int

    func nextPage() -> ReposPagingRequirements {
        return ReposPagingRequirements(pageNumber: pageNumber + 1)
    }
}

private class ReposRepositoryDataSource: PagingRepositoryDataSource {
    // The data type your cache is. What `observe()` will use.
    typealias PagingCache = [Repo]
    // `RepositoryRequirements` subclass you're using
    typealias Requirements = ReposRepositoryRequirements
    // `PagingRepositoryRequirements` subclass you're using
    typealias PagingRequirements = ReposPagingRequirements
    // The GitHub API will simply go to the next page number so this field is not used.
    typealias NextPageRequirements = Void
    // The data type returned from network calls.
    typealias PagingFetchResult = [Repo]
    // Use a custom Error for network calls in your fetch calls.
    typealias FetchError = any Error  // README deviation: `any Error` (ExistentialAny)

    static let reposPageSize = 50

    // README deviation: a plain Single instead of Moya, and memory instead of UserDefaults.
    let gitHub = FakeGitHub()
    let keyValueStorage = InMemoryKeyValueStorage()

    var maxAgeOfCache: Period = Period(unit: 5, component: .hour)

    var currentRepos: [Repo] {
        guard let currentReposData = keyValueStorage.string(forKey: .repos)?.data else {
            return []
        }

        return try! JSONDecoder().decode([Repo].self, from: currentReposData)
    }

    // When you call `goToNextPage()` on your `TellerPagingRepository`, this function is called to get a new `PagingRequirements` for the next network call.
    func getNextPagePagingRequirements(
        currentPagingRequirements: PagingRequirements,
        nextPageRequirements: NextPageRequirements?
    ) -> PagingRequirements {
        return currentPagingRequirements.nextPage()
    }

    // Teller will call this automatically when it needs. You need to delete all of your cache for the given `Requirements`.
    func deleteCache(_ requirements: Requirements) {
        keyValueStorage.delete(key: .repos)
    }

    // Teller will call this automatically when it needs. You need to delete all of your cache for the given `Requirements` *except* for the first page of cache.
    func persistOnlyFirstPage(requirements: ReposRepositoryRequirements) {
        let currentRepos = self.currentRepos
        guard currentRepos.count > ReposRepositoryDataSource.reposPageSize else {
            return
        }

        let firstPageRepos = Array(currentRepos[0...ReposRepositoryDataSource.reposPageSize])

        keyValueStorage.setString((try! JSONEncoder().encode(firstPageRepos)).string!, forKey: .repos)
    }

    // The network call function has changed in the return type that you return.
    func fetchFreshCache(
        requirements: ReposRepositoryRequirements,
        pagingRequirements: PagingRequirements
    ) -> Single<FetchResponse<FetchResult, any Error>> {  // README deviation: `any Error` (ExistentialAny)
        // README deviation: `gitHub.listRepos` instead of `moyaProvider.rx.request(.listRepos(…))`.
        return gitHub.listRepos(user: requirements.username, pageNumber: pagingRequirements.pageNumber)
            .map { (response) -> FetchResponse<FetchResult, FetchError> in
                let repos = try! JSONDecoder().decode([Repo].self, from: response.data)

                let responseHeaders = response.response!.allHeaderFields
                let paginationNext = responseHeaders["link"] as? String ?? responseHeaders["Link"] as! String
                let areMorePagesAvailable = paginationNext.contains("rel=\"next\"")

                // If there was a failure, use FetchResponse.failure(Error) and the error will be sent to your user in the UI
                return FetchResponse.success(
                    PagedFetchResponse(
                        areMorePages: areMorePagesAvailable,
                        nextPageRequirements: nil,
                        fetchResponse: repos
                    )
                )
            }
    }

    // Save the cache. Friendly reminder to *append* the new cache to storage.
    func saveCache(
        _ cache: [Repo],
        requirements: ReposRepositoryRequirements,
        pagingRequirements: PagingRequirements
    ) throws {
        var combinedRepos = currentRepos
        combinedRepos.append(contentsOf: cache)

        keyValueStorage.setString((try! JSONEncoder().encode(combinedRepos)).string!, forKey: .repos)
    }

    // Note: Teller runs this function from the UI thread
    func observeCache(
        requirements: ReposRepositoryRequirements,
        pagingRequirements: ReposPagingRequirements
    ) -> Observable<PagingCache> {
        return keyValueStorage.observeString(forKey: .repos)
            .map { (string) -> PagingCache in
                try! JSONDecoder().decode([Repo].self, from: string.data!)
            }
    }

    // Note: Teller runs this function from the same thread as `observeCachedData()`
    func isCacheEmpty(
        _ cache: [Repo],
        requirements: ReposRepositoryRequirements,
        pagingRequirements: ReposPagingRequirements
    ) -> Bool {
        return cache.isEmpty
    }
}

/// The README's usage code. It runs on `Teller.shared` (the main queue and a metadata file), so
/// the test only compiles it; the behaviour is checked on virtual time below.
private func readmeUsage() {
    let disposeBag = DisposeBag()
    let repository = TellerPagingRepository(
        dataSource: ReposRepositoryDataSource(),
        firstPageRequirements: ReposRepositoryDataSource.PagingRequirements(pageNumber: 1)
    )

    let reposGetDataRequirements = ReposRepositoryDataSource.Requirements(username: "username to get repos for")
    repository.requirements = reposGetDataRequirements
    repository
        .observe()
        .observeOn(ConcurrentDispatchQueueScheduler(qos: .background))
        .subscribeOn(MainScheduler.instance)
        .subscribe(onNext: { (dataState: CacheState<PagedCache<[Repo]>>) in
            switch dataState.state {
            case .noCache:
                // Repos have never been fetched before for the GitHub user.
                break
            case .cache(let cache, let cacheAge):
                _ = cacheAge  // README deviation: the README leaves `cacheAge` unused (a warning).
                // If `cache` is nil, the cache is empty.
                if let pagedCache = cache {
                    let repositories = pagedCache.cache
                    let areMorePages = pagedCache.areMorePages
                    _ = (repositories, areMorePages)  // README deviation: used, to avoid warnings.

                    // Show/hide a "Loading more" footer in your UITableView by `areMorePages` value.
                } else {
                    // The cache is empty! There are no repos for that particular username.
                }

                // Access all of the properties you're used to when not using pagination:
                _ = dataState.isRefreshing  // README deviation: README says `cacheState.isRefreshing`.
            }
        })
        .disposed(by: disposeBag)

    // When the `UITableView` is scrolled down to the bottom, do...
    repository.goToNextPage()
    // ...and the next page of cache will be fetched!
}

@Suite struct PagingReadmeTests {
    let env = VirtualTeller()

    @Test func theReadmeDataSourcePagesThroughGitHubRepos() {
        let dataSource = ReposRepositoryDataSource()
        let repository = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: ReposRepositoryDataSource.PagingRequirements(pageNumber: 1),
            teller: env.teller
        )
        let counts = env.scheduler.createObserver(String.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = ReposRepositoryDataSource.Requirements(username: "octocat")
            _ = repository.observe()
                .map { state in
                    guard let paged = state.cache else { return state.cacheExists ? "unread" : "noCache" }
                    let more = paged.areMorePages ? " more" : ""
                    return "\(paged.cache.count)\(more)\(paged.isLoadingNextPage ? " loading" : "")"
                }
                .subscribe(counts)
        }
        env.scheduler.scheduleAt(200) { repository.goToNextPage() }
        env.scheduler.scheduleAt(300) { repository.goToNextPage() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            counts.events.compactMap(\.value.element) == [
                "noCache", "unread", "50 more", "50 more loading", "100 more", "100 more loading", "120",
            ]
        )
        #expect(dataSource.gitHub.requestedPages == [1, 2, 3])
        _ = readmeUsage  // Compiled, not run.
    }
}

// MARK: - Stand-ins for Moya and UserDefaultsKeyValueStorage

/// GitHub's repos API: 120 repos, 50 per page, with a `Link` header naming the next page.
private final class FakeGitHub: Sendable {
    struct HTTPResponse: Sendable {
        let allHeaderFields: [String: any Sendable]
    }

    struct Response: Sendable {
        let data: Data
        let response: HTTPResponse?
    }

    private let pages = Locked<[Int]>([])

    var requestedPages: [Int] {
        pages.value
    }

    func listRepos(user: String, pageNumber: Int) -> Single<Response> {
        pages.withLock { $0.append(pageNumber) }
        let all = (1...120).map { (number: Int) in Repo(id: number, name: "\(user)/repo\(number)") }
        let page = Array(all.dropFirst((pageNumber - 1) * 50).prefix(50))
        let next = "<https://api.github.com/user/repos?page=\(pageNumber + 1)>; rel=\"next\""
        let link = pageNumber * 50 < all.count ? next : ""
        let data = (try? JSONEncoder().encode(page)) ?? Data()
        return .just(Response(data: data, response: HTTPResponse(allHeaderFields: ["Link": link])))
    }
}

/// A string store with change notifications, keyed like the README's `keyValueStorage`.
private final class InMemoryKeyValueStorage: Sendable {
    enum Key: String {
        case repos
    }

    private let values = Locked<[String: String]>([:])
    private let changes = PublishSubject<String>()

    func string(forKey key: Key) -> String? {
        values.value[key.rawValue]
    }

    func setString(_ value: String, forKey key: Key) {
        values.withLock { $0[key.rawValue] = value }
        changes.onNext(key.rawValue)
    }

    func delete(key: Key) {
        values.withLock { $0[key.rawValue] = nil }
        changes.onNext(key.rawValue)
    }

    /// The value now (an empty list when unset) and after every change.
    func observeString(forKey key: Key) -> Observable<String> {
        let values = self.values
        let changes = self.changes
        return Observable.create { observer in
            observer.onNext(values.value[key.rawValue] ?? "[]")
            return changes.filter { $0 == key.rawValue }.subscribe(onNext: { _ in
                observer.onNext(values.value[key.rawValue] ?? "[]")
            })
        }
    }
}

extension String {
    fileprivate var data: Data? {
        self.data(using: .utf8)
    }
}

extension Data {
    fileprivate var string: String? {
        String(data: self, encoding: .utf8)
    }
}

import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The Swift code of Teller-iOS's README (Getting started; Keep app data up-to-date; Perform a
// refresh only when there is no existing cache; Manual refresh; Convert cache type; Enable and
// disable automatic refresh), with `import RxSwift` swapped for `import TellerRx` and the Moya
// call replaced by a plain `Single`. It compiles as written except where marked
// "README deviation" (places where the original README did not compile either). The types are
// `private` so that the paging README test can use the same names.

// README deviation: the README names this class `ReposRequirements` but refers to it as
// `ReposRepositoryRequirements` everywhere else; one name is used here.
private class ReposRepositoryRequirements: RepositoryRequirements {

    /**
     The tag is used to determine how old your cache is. Teller uses this to determine if a fresh cache needs to be fetched or not. If the tag matches previously cached data of the same tag, the data that data was fetched will be queried and determined if it's considered too old and will fetch fresh data or not from the result of the compare.

     The best practice is to describe what the cache represents. "Repos for <username>" is a great example.
     */
    var tag: ReposRepositoryRequirements.Tag {
        return "Repos for \(username)"
    }

    let username: String

    init(username: String) {
        self.username = username
    }
}

// Struct used to represent the JSON data pulled from the GitHub API.
private struct Repo: Codable {
    var id: Int!
    var name: String!
}

private class ReposRepositoryDataSource: RepositoryDataSource {

    typealias Cache = [Repo]
    typealias Requirements = ReposRepositoryRequirements
    typealias FetchResult = [Repo]
    typealias FetchError = Error

    // How old a cache can be before it's considered old and an automatic refresh should be performed.
    // Teller tries to reduce the number of network calls performed to save on bandwidth of your user's device.
    var maxAgeOfCache: Period = Period(unit: 5, component: .hour)

    func fetchFreshCache(requirements: Requirements) -> Single<FetchResponse<Cache, FetchError>> {
        // The Moya request is replaced by a plain Single of the JSON a server would return.
        let response = Data(#"[{"id": 1, "name": "teller"}]"#.utf8)
        return Single.just(response)
            // README deviation: `FetchResponse` takes the error type too (`FetchResponse<[Repo]>`
            // in the README did not compile against its own two-parameter type).
            .map({ (response) -> FetchResponse<[Repo], Error> in
                let repos = try! JSONDecoder().decode([Repo].self, from: response)

                // If there was a failure, use FetchResponse.failure(Error) and the error will be sent to your user in the UI
                return FetchResponse.success(data: repos)
            })
    }

    // Note: Teller runs this function from a background thread.
    func saveCache(_ fetchedData: Cache, requirements: Requirements) throws {
        // Save data to CoreData, Realm, UserDefaults, File, whatever you wish here.
        // If there is an error, you may throw it, and have it get passed to the observer of the Repository.
    }

    // Note: Teller runs this function from the UI thread
    func observeCache(requirements: Requirements) -> Observable<Cache> {
        // Return Observable that is observing the cached data.
        //
        // When any of the repos in the database have been changed, we want to trigger an Observable update.
        // Teller may call `observeCachedData` regularly to keep data fresh.

        return Observable.just([])
    }

    // Note: Teller runs this function from the same thread as `observeCachedData()`
    func isCacheEmpty(_ cache: Cache, requirements: Requirements) -> Bool {
        return cache.isEmpty
    }

}

/// "Enable and disable automatic refresh feature": the property is declared by the class that
/// conforms to `RepositoryDataSource` (a subclass's `automaticallyRefresh` would not be seen:
/// Swift binds protocol requirements at the conforming class), so this data source conforms
/// itself and delegates the rest.
private class ManualReposRepositoryDataSource: RepositoryDataSource {
    typealias Cache = [Repo]
    typealias Requirements = ReposRepositoryRequirements
    typealias FetchResult = [Repo]
    typealias FetchError = Error

    let readme = ReposRepositoryDataSource()
    var maxAgeOfCache: Period { readme.maxAgeOfCache }

    // override default value.
    var automaticallyRefresh: Bool {
        return false
    }

    func fetchFreshCache(requirements: Requirements) -> Single<FetchResponse<Cache, FetchError>> {
        readme.fetchFreshCache(requirements: requirements)
    }

    func saveCache(_ fetchedData: Cache, requirements: Requirements) throws {
        try readme.saveCache(fetchedData, requirements: requirements)
    }

    func observeCache(requirements: Requirements) -> Observable<Cache> {
        readme.observeCache(requirements: requirements)
    }

    func isCacheEmpty(_ cache: Cache, requirements: Requirements) -> Bool {
        readme.isCacheEmpty(cache, requirements: requirements)
    }
}

/// The README's usage snippets, compiled. They run against `Teller.shared` (the main queue and
/// the metadata file in the user's data directory), so the tests below call them only with
/// repositories of a test environment.
private enum ReadmeSnippets {
    static func gettingStarted(_ repository: TellerRepository<ReposRepositoryDataSource>, disposeBag: DisposeBag) {
        repository.requirements = ReposRepositoryDataSource.Requirements(username: "username to get repos for")
        repository
            .observe()
            .observeOn(ConcurrentDispatchQueueScheduler(qos: .background))
            .subscribeOn(MainScheduler.instance)
            .subscribe(onNext: { (cacheState: CacheState<[Repo]>) in
                // Teller provides a handy way to parse the `CacheState` to understand the state your cache is in.
                switch cacheState.state {
                // No cache exists. A successful network request has not happened yet.
                case .noCache:
                    // Repos have never been fetched before for the GitHub user.
                    break
                case .cache(let cache, let cacheAge):
                    // Repos have been fetched before for the GitHub user.
                    let isCacheEmpty = cache == nil  // If `cache` is nil, the cache is empty.
                    // Use `cacheAge` in your UI to tell the user how long ago the last successful network request was.
                    _ = (isCacheEmpty, cacheAge)
                }

                // You can inspect a lot more about the state of your cache.
                _ = cacheState.isRefreshing  // If a network request is happening right now to refresh the cache
                _ = cacheState.justFinishedFirstFetch  // The first successful network call just finished
                _ = cacheState.refreshError  // Get error from network call if there was one during refresh
                // ... and more. Use these properties in the UI of your app to be transparent about your cache!
            })
            .disposed(by: disposeBag)
    }

    static func keepAppDataUpToDate(_ repository: TellerRepository<ReposRepositoryDataSource>) {
        repository.requirements = ReposRepositoryDataSource.Requirements(username: "username to get repos for")

        _ = try! repository.refresh(force: false)
            .subscribe()
    }

    static func refreshIfNoCache(
        _ repository: TellerRepository<ReposRepositoryDataSource>,
        done: @escaping @Sendable (Bool) -> Void
    ) {
        repository.requirements = ReposRepositoryDataSource.Requirements(username: "username to get repos for")

        _ = try! repository.refreshIfNoCache()
            .subscribe(onSuccess: { (refreshResult) in
                if case .successful = refreshResult {
                    // Cache does exist.
                    done(true)
                } else {
                    // Cache does not exist. View the error in `refreshResult` to see why the refresh attempt failed.
                    done(false)
                }
            })
    }

    static func manualRefresh(_ repository: TellerRepository<ReposRepositoryDataSource>) {
        repository.requirements = ReposRepositoryDataSource.Requirements(username: "username to get repos for")

        // README deviation: `refresh(force:)` throws when requirements are not set, so the call
        // needs `try` (the README's own API threw too).
        _ = try? repository.refresh(force: true)
            .subscribe()
    }

    struct RepoName {
        let name: String?
        init(a: [Repo]) { name = a.first?.name }
    }

    static func convert(_ repository: TellerRepository<ReposRepositoryDataSource>) -> Observable<CacheState<RepoName>> {
        repository.observe()
            .map { (dataState) -> CacheState<RepoName> in
                dataState.convert { (a) -> RepoName? in
                    guard let a = a else { return nil }
                    return RepoName(a: a)
                }
            }
    }
}

@Suite struct ReadmeGettingStartedTests {
    @Test func readmeDataSourceFetchesSavesAndReportsSuccess() {
        let env = VirtualTeller()
        let repository = TellerRepository(dataSource: ReposRepositoryDataSource(), teller: env.teller)
        let answer = Locked<Bool?>(nil)
        env.scheduler.scheduleAt(100) {
            ReadmeSnippets.refreshIfNoCache(repository) { value in answer.withLock { $0 = value } }
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(answer.value == true)
        #expect(env.store.metadata(forTag: "Repos for username to get repos for") != nil)
    }

    @Test func readmeConvertKeepsTheStateAndConvertsTheCache() {
        let env = VirtualTeller()
        let repository = TellerRepository(dataSource: ReposRepositoryDataSource(), teller: env.teller)
        let converted = env.scheduler.createObserver(CacheState<ReadmeSnippets.RepoName>.self)
        env.scheduler.scheduleAt(100) {
            ReadmeSnippets.manualRefresh(repository)
            _ = ReadmeSnippets.convert(repository).subscribe(converted)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        let last = converted.events.compactMap(\.value.element).last
        #expect(last?.cacheExists == true)
        #expect(last?.cache == nil)  // the README's observeCache emits an empty list
    }

    @Test func automaticRefreshCanBeTurnedOffByTheDataSource() {
        #expect(ReposRepositoryDataSource().automaticallyRefresh)
        #expect(!ManualReposRepositoryDataSource().automaticallyRefresh)
        let env = VirtualTeller()
        let repository = TellerRepository(dataSource: ManualReposRepositoryDataSource(), teller: env.teller)
        env.scheduler.scheduleAt(100) {
            repository.requirements = ReposRepositoryRequirements(username: "octocat")
            _ = repository.observe().subscribe()
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(env.log.value.isEmpty)
    }
}

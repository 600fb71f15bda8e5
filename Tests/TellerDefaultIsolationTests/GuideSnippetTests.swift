import Dispatch
import Foundation
import Teller
import TellerRx
import TellerTesting
import Testing

// The README's guides that build on the quick start, as a new Xcode 26 app target compiles
// them (main-actor default isolation, approachable concurrency). Declarations are the README's
// word for word; statements are the bodies of functions whose parameters stand for what the
// guides assume (`repository`, `disposeBag`, `state`, `teller`).

private struct ReposRequirements: RepositoryRequirements {
    let username: String
    var tag: String { "Repos for \(username)" }  // identifies the data across launches
}

private final class ReposDataSource: RepositoryDataSource {
    typealias Cache = [String]
    typealias Requirements = ReposRequirements
    typealias FetchResult = [String]
    typealias FetchError = any Error

    let maxAgeOfCache = Period(unit: 5, component: .hour)  // refresh when older than this
    private let saved = BehaviorSubject<[String]>(value: [])

    func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[String], any Error>> {
        .just(.success(["teller", "teller-android"]))  // your network call goes here
    }

    func saveCache(_ cache: [String], requirements: ReposRequirements) throws {
        saved.onNext(cache)  // your database write goes here
    }

    func observeCache(requirements: ReposRequirements) -> Observable<[String]> {
        saved.asObservable()  // your database query goes here
    }

    func isCacheEmpty(_ cache: [String], requirements: ReposRequirements) -> Bool {
        cache.isEmpty
    }
}

extension ReposDataSource {
    var automaticallyRefresh: Bool { false }
}

extension ReposDataSource {
    var retryPolicy: RetryPolicy? { .standard }  // its own: 3 retries, after 1, 2 and 4 seconds
}

extension ReposDataSource {
    var refreshInterval: RxTimeInterval? { .seconds(60) }
}

private struct RepoRow: Sendable {
    let title: String
}

private protocol Reachability: AnyObject {
    var whenReconnected: (() -> Void)? { get set }
}

private func guideStatements(
    repository: TellerRepository<ReposDataSource>,
    disposeBag: DisposeBag,
    state: CacheState<[String]>,
    teller: Teller,
    reachability: any Reachability
) throws {
    let maxAge = Period(unit: 1, component: .day)
    let fetched = Date(timeIntervalSince1970: 0)
    print(maxAge.isTooOld(lastFetched: fetched, now: fetched.addingTimeInterval(23 * 3600)))  // false
    print(maxAge.isTooOld(lastFetched: fetched, now: fetched.addingTimeInterval(24 * 3600)))  // true
    try repository.refresh(force: true)
        .subscribe(onSuccess: { result in
            switch result {
            case .successful:
                print("Fetched and saved; observe() shows the new repos.")
            case .failedError(let error):
                print("The refresh failed and the old repos stay: \(error)")
            case .skipped(reason: .dataNotTooOld):
                print("The cache is fresh, nothing fetched.")  // only without force
            case .skipped(reason: .cancelled):
                print("Nobody waits for this refresh any more.")
            }
        })
        .disposed(by: disposeBag)
    try repository.refreshIfNoCache()
        .subscribe(onSuccess: { result in
            if result.didSucceed {
                print("A cache exists: show the app.")
            } else {
                print("Still no cache (\(result)): offer a retry.")
            }
        })
        .disposed(by: disposeBag)
    teller.invalidate(tag: ReposRequirements(username: "octocat").tag)
    if let retry = state.pendingRetry {
        print("Attempt \(retry.failedAttempts) failed (\(retry.lastError)); trying again at \(retry.nextAttemptAt)")
    }
    teller.appDidBecomeActive()  // UIKit and AppKit apps get this call for free
    reachability.whenReconnected = { teller.networkDidBecomeAvailable() }
    let rows: Observable<CacheState<[RepoRow]>> = repository.observe()
        .map { state in
            state.convert { repos in repos?.map { RepoRow(title: $0.uppercased()) } }
        }
    _ = rows  // around the snippets
    teller.logger = { event in
        switch event {
        case .refreshFailed(let tag, let error, let duration):
            print("Fetching \(tag) failed after \(duration): \(error)")
        case .saveFailed, .observeFailed, .metadataProblem:
            print("Teller: \(event)")
        default:
            break
        }
    }
    repository.observe()
        .subscribe(onNext: { state in
            switch state.state {
            case .noCache:
                print(state.isFirstFetch ? "Loading…" : "Nothing fetched yet.")
            case .cache(let repos?, _):
                print("\(repos.count) repos")
            case .cache(nil, _) where state.isLoadingCache:
                print("Reading the cache…")  // exists, not read yet: not empty
            case .cache(nil, _):
                print("No repos.")  // really empty
            }
        })
        .disposed(by: disposeBag)
}

private func retryTeller() throws -> Teller {
    let teller = Teller(
        retryPolicy: try RetryPolicy(maxRetries: 5, initialDelay: .seconds(2), maxDelay: .seconds(60), jitter: 0.2)
    )
    return teller
}

import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

// The README's quick start, as written there (inside a function instead of top-level code).

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

@Suite struct ReadmeQuickStartTests {
    @Test func quickStartPrintsTheFirstFetchThenTheRepos() {
        let printed = Locked<[String]>([])
        @Sendable func print(_ line: String) { printed.withLock { $0.append(line) } }

        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),  // omit to remember fetches across launches
            uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "ui")
        )
        let repository = TellerRepository(dataSource: ReposDataSource(), teller: teller)
        let done = DispatchSemaphore(value: 0)
        let subscription = repository.observe().subscribe(onNext: { state in
            switch state.state {
            case .noCache:
                print(state.isFirstFetch ? "Fetching for the first time…" : "Nothing cached yet.")
            case .cache(let repos?, let age):
                print("\(repos) (fetched \(age))\(state.isRefreshing ? ", refreshing" : "")")
                done.signal()
            case .cache(nil, _):
                print(state.isLoadingCache ? "Reading the cache…" : "No repos.")
            }
        })
        repository.requirements = ReposRequirements(username: "levibostian")
        if done.wait(timeout: .now() + 30) == .timedOut { print("No repos within 30 seconds.") }
        subscription.dispose()

        #expect(printed.value.first == "Fetching for the first time…")
        #expect(printed.value.last?.hasPrefix("[\"teller\", \"teller-android\"] (fetched ") == true)
    }
}

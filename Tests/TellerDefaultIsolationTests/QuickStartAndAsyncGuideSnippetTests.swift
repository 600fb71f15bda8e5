import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's quick start as a new Xcode 26 app target compiles it: this target's default
// isolation is the main actor, with NonisolatedNonsendingByDefault and InferIsolatedConformances
// (Package.swift). The declarations are the README's, word for word; its top-level code is the
// body of `quickStart`. The async/await, Swift concurrency and testing guides' snippets follow,
// on the same types (without the other guides' extensions: no automatic refresh, an interval).

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

/// What the quick start printed: its `print` is this recorder, callable from any thread as
/// `Swift.print` is.
private nonisolated let printed = Locked<[String]>([])

private nonisolated func print(_ line: String) {
    printed.withLock { $0.append(line) }
}

/// The README's top-level code, on the main actor as an app's code is.
private func quickStart() {
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
}

@Suite struct QuickStartUnderMainActorIsolationTests {
    @Test func theQuickStartRunsOnTheMainActor() {
        quickStart()
        #expect(printed.value.first == "Fetching for the first time…")
        #expect(printed.value.last?.hasPrefix("[\"teller\", \"teller-android\"] (fetched ") == true)
    }
}

private func showRepos(_ repository: TellerRepository<ReposDataSource>) async throws {
    let result = try await repository.refresh(force: true).value
    print("Refresh: \(result)")

    for try await state in repository.observe().values {
        print(state)
        if state.cache != nil { break }  // or keep looping until the task is cancelled
    }
}

private func watchRepos(_ repository: TellerRepository<ReposDataSource>) async throws {
    let result = try await repository.refreshResult(force: true)
    print("Refresh: \(result)")

    for await state in repository.states {
        print(state)
        if state.cache != nil { break }  // or keep looping until the task is cancelled
    }
}

private final class AsyncReposDataSource: AsyncRepositoryDataSource {
    typealias Cache = [String]
    typealias Requirements = ReposRequirements
    typealias FetchResult = [String]
    typealias FetchError = any Error

    let maxAgeOfCache = Period(unit: 5, component: .hour)
    private let saved = BehaviorSubject<[String]>(value: [])

    func fetchFreshCache(requirements: ReposRequirements) async throws -> FetchResponse<[String], any Error> {
        .success(["teller", "teller-android"])  // e.g. try await URLSession.shared.data(from: url)
    }

    func saveCache(_ cache: [String], requirements: ReposRequirements) throws {
        saved.onNext(cache)
    }

    func observeCache(requirements: ReposRequirements) -> Observable<[String]> {
        saved.asObservable()
    }

    func isCacheEmpty(_ cache: [String], requirements: ReposRequirements) -> Bool {
        cache.isEmpty
    }
}

@Suite struct AsyncGuidesUnderMainActorIsolationTests {
    @Test func statesPlayOutOnVirtualTime() async throws {
        let scheduler = TestScheduler(initialClock: 0)
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            clock: { scheduler.now },
            uiScheduler: scheduler,
            backgroundScheduler: scheduler
        )
        let repository = TellerRepository(dataSource: ReposDataSource(), teller: teller)
        var states = repository.states.makeAsyncIterator()  // observes from here on, buffering
        repository.requirements = ReposRequirements(username: "octocat")
        scheduler.start()  // the fetch and every state play out

        #expect(await states.next()?.isFirstFetch == true)
        var repos: [String]?
        while repos == nil, let state = await states.next() { repos = state.cache }  // buffered
        #expect(repos == ["teller", "teller-android"])
    }

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
}

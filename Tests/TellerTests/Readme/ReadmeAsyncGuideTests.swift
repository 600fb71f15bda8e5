import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

// The README's guide "async/await": its function and its data source verbatim (made `private`),
// on real queues. The snippets' `print` is this file's `print`, which records the lines.

private typealias ReposRequirements = GuideReposRequirements
private typealias ReposDataSource = GuideReposDataSource

/// Every line `showRepos` printed (only one test calls it).
private let printed = Locked<[String]>([])

private func print(_ item: Any) {
    printed.withLock { $0.append("\(item)") }
}

private func showRepos(_ repository: TellerRepository<ReposDataSource>) async throws {
    let result = try await repository.refresh(force: true).value
    print("Refresh: \(result)")

    for try await state in repository.observe().values {
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

@Suite(.timeLimit(.minutes(5))) struct ReadmeAsyncGuideTests {
    @Test func showReposAwaitsTheRefreshThenIteratesStatesUntilTheReposArrive() async throws {
        let repository = TellerRepository(dataSource: ReposDataSource(), teller: makeRealTeller())
        repository.requirements = ReposRequirements(username: "octocat")

        try await showRepos(repository)

        #expect(printed.value.first == "Refresh: successful")
        #expect(printed.value.count >= 2)
        #expect(printed.value.last?.hasPrefix("cache([\"teller\", \"teller-android\"], age ") == true)
    }

    @Test func asyncDataSourceFetchesThroughItsAsyncFunction() async throws {
        let repository = TellerRepository(dataSource: AsyncReposDataSource(), teller: makeRealTeller())
        repository.requirements = ReposRequirements(username: "octocat")

        #expect(try await repository.refresh(force: true).value == .successful)
        for try await state in repository.observe().values where state.cache != nil || state.fetchError != nil {
            #expect(state.cache == ["teller", "teller-android"])
            break
        }
    }
}

import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's "Coming from Teller-iOS and RxSwift": the snippet that tells an empty cache from
// one not read yet, in a function (around the snippet: the function and its parameters).

private typealias ReposRequirements = GuideReposRequirements
private typealias ReposDataSource = GuideReposDataSource

private func emptyOrNotReadSnippet(
    _ repository: TellerRepository<ReposDataSource>,
    disposeBag: DisposeBag,
    print: @escaping @Sendable (Any) -> Void
) {
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

@Suite struct ReadmePortingTests {
    let env = VirtualTeller()

    private func linesPrinted(fetching repos: [String]) -> [String] {
        let printed = PrintedLines()
        let dataSource = ReposDataSource(fetch: { [env] in env.fetch(repos, after: 10) })
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let disposeBag = DisposeBag()
        env.scheduler.scheduleAt(100) {
            repository.requirements = ReposRequirements(username: "octocat")
            emptyOrNotReadSnippet(repository, disposeBag: disposeBag, print: printed.record)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        return printed.value
    }

    @Test func theFirstFetchShowsLoadingThenReadingTheCacheThenTheRepos() {
        #expect(linesPrinted(fetching: ["teller", "teller-android"]) == ["Loading…", "Reading the cache…", "2 repos"])
    }

    @Test func anEmptyCacheShowsAsEmptyOnlyOnceItWasRead() {
        #expect(linesPrinted(fetching: []) == ["Loading…", "Reading the cache…", "No repos."])
    }

    @Test func oldFetchTimesAreNotImportedSoTheFirstLaunchShowsNoCacheAndFetches() {
        // Your database still holds repos, but the metadata store knows no fetch time for them.
        let dataSource = ReposDataSource(fetch: { [env] in env.fetch(["teller"], after: 10) })
        dataSource.saved.onNext(["from Teller-iOS days"])
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = ReposRequirements(username: "octocat")
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }

        let first = states.events.first?.value.element
        #expect(first.map { !$0.cacheExists && $0.isFirstFetch } == true)
        #expect(dataSource.fetchCount == 1)
    }
}

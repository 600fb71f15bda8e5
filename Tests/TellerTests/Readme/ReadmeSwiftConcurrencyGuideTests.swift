import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

#if canImport(SwiftUI)
import SwiftUI
#endif

// The README's guide "Swift concurrency and SwiftUI" and the DocC article
// SwiftConcurrencyAndSwiftUI.md: their snippets verbatim (made `private`). The snippets' `print`
// is this file's `print`, which records the lines. `ReposView` needs SwiftUI, so it is compiled
// on Apple platforms only.

private typealias ReposRequirements = GuideReposRequirements
private typealias ReposDataSource = GuideReposDataSource

/// Every line `watchRepos` printed (only one test calls it).
private let printed = PrintedLines()

private func print(_ item: Any) {
    printed.record(item)
}

private func watchRepos(_ repository: TellerRepository<ReposDataSource>) async throws {
    let result = try await repository.refreshResult(force: true)
    print("Refresh: \(result)")

    for await state in repository.states {
        print(state)
        if state.cache != nil { break }  // or keep looping until the task is cancelled
    }
}

#if canImport(SwiftUI)
private struct ReposView: View {
    let model: RepositoryModel<TellerRepository<ReposDataSource>>

    var body: some View {
        List(model.state?.cache ?? [], id: \.self) { repo in
            Text(repo)
        }
        .overlay {
            if model.state?.isFirstFetch == true { ProgressView() }
        }
        .refreshable { _ = try? await model.refresh(force: true) }
    }
}
#endif

@Suite(.timeLimit(.minutes(5))) struct ReadmeSwiftConcurrencyGuideTests {
    @Test func watchReposAwaitsTheRefreshThenLoopsOverStatesUntilTheReposArrive() async throws {
        let repository = TellerRepository(dataSource: ReposDataSource(), teller: makeRealTeller())
        repository.requirements = ReposRequirements(username: "octocat")

        try await watchRepos(repository)

        #expect(printed.value.first == "Refresh: successful")
        #expect(printed.value.count >= 2)
        #expect(printed.value.last?.hasPrefix("cache([\"teller\", \"teller-android\"], age ") == true)
    }

    @Test func theModelShowsTheReposOnceFetched() {
        let scheduler = TestScheduler(initialClock: 0)
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            clock: { scheduler.now },
            uiScheduler: scheduler,
            backgroundScheduler: scheduler
        )
        let repository = TellerRepository(dataSource: ReposDataSource(), teller: teller)
        repository.requirements = ReposRequirements(username: "octocat")
        let model = RepositoryModel(repository: repository)

        scheduler.advanceTo(10)

        #expect(model.state?.cache == ["teller", "teller-android"])
    }
}

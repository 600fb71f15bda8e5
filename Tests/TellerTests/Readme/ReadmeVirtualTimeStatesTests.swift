import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's virtual-time pattern for `states` (guide "Swift concurrency and SwiftUI"),
// verbatim: the test the README shows is this suite's test.

private typealias ReposRequirements = GuideReposRequirements
private typealias ReposDataSource = GuideReposDataSource

@Suite struct ReadmeVirtualTimeStatesTests {
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
}

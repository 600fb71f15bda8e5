import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// The README's "Signing out" recipe, run: afterwards the model shows nothing and no fetch of the
/// previous user is left.
@Suite struct ReadmeSignOutGuideTests {
    let env = VirtualTeller()

    /// The screen of the recipe: a repository, its `Teller`, and the README's `signOut()`.
    private struct Screen {
        let repository: TellerRepository<InMemoryDataSource>
        let teller: Teller

        func signOut() {
            repository.requirements = nil  // every surface stops showing the user's data at once
            teller.clear()  // forget the user's fetch times; either order works
        }
    }

    @Test func theRecipeLeavesNothingOfThePreviousUserOnScreen() {
        let dataSource = InMemoryDataSource()
        dataSource.respond(with: { [env] _ in env.fetch(["octocat's repos"], after: 10) })
        let screen = Screen(
            repository: TellerRepository(dataSource: dataSource, teller: env.teller),
            teller: env.teller
        )
        screen.repository.requirements = TestRequirements(username: "octocat")
        let model = RepositoryModel(repository: screen.repository)
        env.scheduler.advanceTo(50)
        #expect(model.state?.cache == ["octocat's repos"])

        env.scheduler.scheduleAt(60) { screen.signOut() }
        env.scheduler.advanceTo(200)

        #expect(model.state == nil)
        #expect(dataSource.calls.fetches == 1)
        #expect(env.store.metadata(forTag: TestRequirements(username: "octocat").tag) == nil)
    }
}

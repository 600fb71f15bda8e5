import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `Teller.invalidate(tagsUnder:)` and `clear(tagsUnder:)`, through repositories on virtual
/// time: the tags of users 42 and 420 are `Repos for users/42/posts` and so on, and the branch
/// is the tag of `users/42`. Every cache was fetched at tick 50 and is fresh for an hour.
@Suite struct TagBranchTests {
    let env = VirtualTeller()
    let dataSource = InMemoryDataSource()
    let posts = TestRequirements(username: "users/42/posts")
    let likes = TestRequirements(username: "users/42/likes")
    let otherUser = TestRequirements(username: "users/420/posts")
    let branch = TagPrefix(TestRequirements(username: "users/42").tag)

    init() {
        for requirements in [posts, likes, otherUser] {
            dataSource.write(["old"], for: requirements)
            env.markFetched(requirements, at: 50)
        }
        let env = env
        dataSource.respond { requirements in env.fetch(["new \(requirements.username)"], after: 10) }
    }

    /// Repositories for `posts`, `likes` and `otherUser`, set and observed from tick 100.
    private func observedRepositories() -> (
        repositories: [TellerRepository<InMemoryDataSource>],
        states: [TestableObserver<CacheState<[String]>>]
    ) {
        let pairs = [posts, likes, otherUser].map { env.repository(dataSource, showing: $0) }
        return (pairs.map(\.0), pairs.map(\.1))
    }

    @Test func invalidatingABranchRefreshesTheObservedRepositoriesOfItsTagsOnly() {
        let (repositories, states) = observedRepositories()
        env.scheduler.scheduleAt(200) { env.teller.invalidate(tagsUnder: branch) }
        withExtendedLifetime(repositories) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 2)
        #expect(states[0].timeline.last == "213: cache [\"new users/42/posts\"] age 212")
        #expect(states[1].timeline.last == "213: cache [\"new users/42/likes\"] age 212")
        #expect(states[2].timeline.last == "101: cache [\"old\"] age 50")
    }

    @Test func aRepositoryCreatedAfterABranchWasInvalidatedRefreshesWhenObserved() {
        let (repository, states) = env.repository(dataSource, showing: likes, at: 300)
        env.scheduler.scheduleAt(200) { env.teller.invalidate(tagsUnder: branch) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
        #expect(states.timeline.last == "313: cache [\"new users/42/likes\"] age 312")
    }

    @Test func clearingABranchForgetsItsTagsOnlyAndRefetchesTheirObservedRepositories() {
        let (repositories, states) = observedRepositories()
        env.scheduler.scheduleAt(200) { env.teller.clear(tagsUnder: branch) }
        withExtendedLifetime(repositories) { env.scheduler.start() }
        #expect(env.store.metadata(forTag: otherUser.tag) != nil)
        #expect(dataSource.calls.fetches == 2)
        #expect(
            Array(states[0].timeline.suffix(3)) == [
                "201: noCache, firstFetch",
                "213: cache unread age 212, justFinishedFirstFetch",
                "213: cache [\"new users/42/posts\"] age 212",
            ]
        )
        #expect(states[1].timeline.last == "213: cache [\"new users/42/likes\"] age 212")
        #expect(states[2].timeline.last == "101: cache [\"old\"] age 50")
    }

    @Test func aStoreThatCannotForgetABranchIsLoggedAndKeepsItsMetadata() {
        struct ListlessStore: FetchMetadataStore {
            func metadata(forTag tag: String) -> FetchMetadata? { FetchMetadata(lastFetched: Date()) }
            func setMetadata(_ metadata: FetchMetadata?, forTag tag: String) throws {}
            func removeAll() throws {}
        }
        let log = Locked<[String]>([])
        let teller = Teller(metadataStore: ListlessStore(), logger: { event in log.withLock { $0.append("\(event)") } })
        teller.clear(tagsUnder: "users/42")
        #expect(
            log.value == [
                "clear(tagsUnder:) could not remove the stored metadata under users/42: this metadata store cannot forget the tags under \"users/42\": implement removeMetadata(tagsUnder:)"
            ]
        )
    }
}

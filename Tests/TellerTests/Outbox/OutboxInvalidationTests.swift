import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A sent write invalidates the tags it declares, and a rejected one its own tag, so the
/// repositories showing them fetch the server's version.
@Suite struct OutboxInvalidationTests {
    let fixture = OutboxFixture()
    let dataSource = InMemoryDataSource()
    let octocat = TestRequirements(username: "octocat")

    init() {
        dataSource.write(["old"], for: octocat)
        fixture.env.markFetched(octocat, at: 0)
        let env = fixture.env
        dataSource.respond { _ in env.fetch(["from the server"], after: 5) }
    }

    /// A repository showing `octocat`, observed from tick 1.
    private func observedRepository() -> (TellerRepository<InMemoryDataSource>, TestableObserver<CacheState<[String]>>)
    {
        let repository = TellerRepository(dataSource: dataSource, teller: fixture.env.teller)
        let states = fixture.scheduler.createObserver(CacheState<[String]>.self)
        repository.requirements = octocat
        _ = repository.observe().subscribe(states)
        return (repository, states)
    }

    @Test func aSentWriteInvalidatesTheTagsItDeclares() throws {
        defer { fixture.tearDown() }
        let (repository, states) = observedRepository()
        let (outbox, handler) = fixture.outbox(answering: [.sent(invalidating: [octocat.tag], after: 50)])
        try outbox.enqueueNote("edit", tag: octocat.tag)
        withExtendedLifetime(repository) { fixture.scheduler.advanceTo(50) }
        #expect(dataSource.calls.fetches == 0)
        withExtendedLifetime(repository) { fixture.scheduler.start() }
        #expect(handler.sendCallsCount == 1)
        #expect(dataSource.calls.fetches == 1)
        // Enqueued and sent at 1, accepted at 51: the refresh starts then, as the write leaves.
        #expect(
            states.timeline == [
                "1: cache unread age 0",
                "1: cache unread age 0, 1 pending",
                "1: cache [\"old\"] age 0, 1 pending",
                "52: cache [\"old\"] age 0, refreshing",
                "59: cache [\"old\"] age 58, justFinishedRefresh",
                "59: cache [\"from the server\"] age 58",
            ]
        )
    }

    @Test func aSentWriteInvalidatesTheBranchesItDeclares() throws {
        defer { fixture.tearDown() }
        let branch = TestRequirements(username: "users/42")
        let inBranch = [TestRequirements(username: "users/42/posts"), TestRequirements(username: "users/42/likes")]
        let outside = TestRequirements(username: "users/420/posts")
        var repositories: [TellerRepository<InMemoryDataSource>] = []
        for requirements in inBranch + [outside] {
            dataSource.write(["old"], for: requirements)
            fixture.env.markFetched(requirements, at: 0)
            let repository = TellerRepository(dataSource: dataSource, teller: fixture.env.teller)
            repository.requirements = requirements
            _ = repository.observe().subscribe()
            repositories.append(repository)
        }
        let (outbox, handler) = fixture.outbox(answering: [.sent(tagsUnder: [TagPrefix(branch.tag)], after: 50)])
        try outbox.enqueueNote("edit", tag: inBranch[0].tag)
        withExtendedLifetime(repositories) { fixture.scheduler.start() }
        #expect(handler.sendCallsCount == 1)
        #expect(dataSource.calls.fetches == 2)
        #expect(inBranch.map { dataSource.cache(for: $0) } == [["from the server"], ["from the server"]])
        #expect(dataSource.cache(for: outside) == ["old"])
    }

    @Test func aRejectedWriteInvalidatesItsTag() throws {
        defer { fixture.tearDown() }
        let (repository, _) = observedRepository()
        let (outbox, handler) = fixture.outbox(answering: [.rejected(TestError(403), after: 50)])
        try outbox.enqueueNote("forbidden", tag: octocat.tag)
        withExtendedLifetime(repository) { fixture.scheduler.start() }
        #expect(handler.sendCallsCount == 1)
        #expect(dataSource.calls.fetches == 1)
        #expect(outbox.rejections.count == 1)
    }
}

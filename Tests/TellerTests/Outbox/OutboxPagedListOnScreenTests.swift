import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A paging repository shows the writes to its tag waiting in an outbox on its pages, as a plain
/// repository does, and on an empty list too: a write may add the list's first item. Virtual
/// time; the server is offline, so the writes wait.
@Suite struct OutboxPagedListOnScreenTests {
    static let octocat = TestRequirements(username: "octocat")

    struct Offline: Error {}

    /// A paging repository over `pages`, whose data source shows pending note edits after the
    /// stored items, and an outbox whose sends fail while offline.
    private func screen(
        _ fixture: OutboxFixture,
        pages: [[String]]
    ) -> (TellerPagingRepository<PageNumberDataSource>, TestableObserver<CacheState<PagedCache<[String]>>>) {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: fixture.env.pageNumberServer(pages))
        dataSource.showPendingWrites { writes, stored in
            let edits = writes.compactMap { try? JSONDecoder().decode(NoteEdit.self, from: $0.payload).text }
            let shown = (stored ?? []) + edits
            return shown.isEmpty ? nil : shown
        }
        return fixture.env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
    }

    @Test func anEditWaitingForAnEmptyListIsShownAsItsFirstItem() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (repository, states) = screen(fixture, pages: [[]])
        let (outbox, _) = fixture.outbox(answering: [.retryableFailure(Offline(), after: 1)])
        fixture.scheduler.advanceTo(200)
        #expect(states.latest?.cache == nil)
        #expect(states.latest?.cacheExists == true)

        try outbox.enqueueNote("First repo", tag: Self.octocat.tag)
        withExtendedLifetime(repository) { fixture.scheduler.advanceTo(210) }
        #expect(states.latest?.cache?.cache == ["First repo"])
        #expect(states.latest?.cache?.areMorePages == false)
        #expect(states.latest?.pendingWrites.count == 1)
    }

    @Test func anEditWaitingIsShownAfterThePagesStored() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (repository, states) = screen(fixture, pages: [["a", "b"], ["c"]])
        let (outbox, _) = fixture.outbox(answering: [.retryableFailure(Offline(), after: 1)])
        fixture.scheduler.advanceTo(200)
        #expect(states.latest?.cache?.cache == ["a", "b"])

        try outbox.enqueueNote("d", tag: Self.octocat.tag)
        withExtendedLifetime(repository) { fixture.scheduler.advanceTo(210) }
        #expect(states.latest?.cache?.cache == ["a", "b", "d"])
        #expect(states.latest?.cache?.areMorePages == true)
        #expect(states.latest?.pendingWrites.count == 1)
    }
}

extension TestableObserver {
    /// The last element recorded.
    fileprivate var latest: Element? {
        events.compactMap { $0.value.element }.last
    }
}

import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A fetch that started before the server took an edit answers after a fetch of the same tag by
/// another data-source type (same store), started after the take, saved the server's list with
/// the edit: the older list is not saved over it, so the edit never leaves the screen, even
/// though no fetch follows (found by `RepositoryStateMachineRandomizedTests`, seed 3992).
@Suite struct OlderFetchSavesNothingOverNewerTests {
    static let notes = OutboxPendingWritesOnScreenTests.notes
    typealias Screen = OutboxPendingWritesOnScreenTests.Screen

    /// Another data-source type on the same store: its fetches are another flight of the tag.
    final class SameStoreDataSource: RepositoryDataSource, @unchecked Sendable {
        // @unchecked: `store` locks its own state; `fetch` is set before any repository uses it.
        typealias Cache = [String]
        typealias Requirements = TestRequirements
        typealias FetchResult = [String]
        typealias FetchError = any Error

        let store: InMemoryDataSource
        let fetch: Single<FetchResponse<[String], any Error>>
        let maxAgeOfCache = Period(unit: 1, component: .hour)

        init(store: InMemoryDataSource, fetch: Single<FetchResponse<[String], any Error>>) {
            self.store = store
            self.fetch = fetch
        }

        func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<[String], any Error>> {
            fetch
        }

        func saveCache(_ cache: [String], requirements: TestRequirements) throws {
            try store.saveCache(cache, requirements: requirements)
        }

        func observeCache(requirements: TestRequirements) -> Observable<[String]> {
            store.observeCache(requirements: requirements)
        }

        func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
            cache.isEmpty
        }
    }

    @Test func anOlderFetchSavesNothingOverANewerFetchThatHasTheEditTheServerTook() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let screen = Screen(fixture, stored: ["Buy bread"])
        let (outbox, _) = fixture.outbox(answering: [.sent(after: 5)])
        // A slow refresh, started before the edit: its list predates it.
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread"], after: 40) }
        let refreshed = Locked<RefreshResult?>(nil)
        _ = try screen.repository.refresh(force: true).subscribe(onSuccess: { result in
            refreshed.withLock { $0 = result }
        })
        try outbox.enqueueNote("Buy milk", tag: Self.notes.tag)
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 10)
        #expect(outbox.pending.isEmpty)

        // Once the server took the edit, another screen's data source fetches the list with it.
        let other = SameStoreDataSource(
            store: screen.dataSource,
            fetch: fixture.env.fetch(["Buy bread", "Buy milk"], after: 5)
        )
        let otherRepository = TellerRepository(dataSource: other, teller: fixture.env.teller)
        otherRepository.requirements = Self.notes
        _ = try otherRepository.refresh(force: true).subscribe()

        fixture.step(to: fixture.scheduler.clock + 300) {
            #expect(screen.shown == ["Buy bread", "Buy milk"], "at \(fixture.scheduler.clock)")
        }
        #expect(refreshed.withLock { $0 } == .successful)
        #expect(screen.dataSource.calls.saves == 1)
        #expect(screen.dataSource.cache(for: Self.notes) == ["Buy bread", "Buy milk"])
        #expect(screen.pending.isEmpty)
    }
}

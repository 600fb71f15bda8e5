import Foundation
import TellerRx
import TellerTestSupport
import Testing

@testable import Teller

/// A write the server took stays applied to what observers see until the repository read data
/// that has it, even when the tag's invalidation mark was already gone when the repository
/// read it: a fetch that started after the take saved meanwhile, but the cache value it wrote
/// is still on its way (found by `RepositoryStateMachineRandomizedTests`, seed 67).
@Suite struct TakenWriteShownUntilReadTests {
    typealias Machine = RepositoryStateMachine<TestRequirements, [String]>

    let octocat = TestRequirements(username: "octocat")
    let write = OutboxRecord(kind: "edit", tag: "Repos for octocat", payload: Data(), createdAt: Date())

    private func shownWrites(_ actions: [Machine.Action]) -> [[UUID]] {
        actions.compactMap { action in
            if case .emit(let state) = action { state.shownWrites.map(\.id) } else { nil }
        }
    }

    private func stored(_ seconds: Double) -> TypedStoredFetch<Never> {
        TypedStoredFetch(lastFetched: Date(timeIntervalSince1970: seconds))
    }

    @Test func aTakenWriteStaysShownWhenTheMarkWasGoneBeforeTheRepositoryReadIt() throws {
        let now = Date(timeIntervalSince1970: 10_000)
        var machine = Machine(
            configuration: .init(automaticallyRefresh: false, maxAgeOfCache: Period(unit: 1, component: .hour))
        )
        let started = machine.handle(
            .setRequirements(octocat, stored: stored(9_000), writes: TagWrites(pending: [write])),
            now: now
        )
        let observation = try #require(
            started.lazy.compactMap { action -> Int? in
                if case .observeCache(_, _, let observation) = action { observation } else { nil }
            }.first
        )
        _ = machine.handle(
            .cacheEmitted(observation: observation, cache: ["before the write"], isEmpty: false),
            now: now
        )

        // The outbox's invalidation, read after a later fetch saved: no mark any more.
        _ = machine.handle(.metadataChanged(tag: octocat.tag, stored: stored(9_500), invalidation: true), now: now)
        let taken = machine.handle(.writesChanged(TagWrites(), sent: write), now: now)
        #expect(shownWrites(taken).last == [write.id])

        // The value that fetch saved arrives: it has the write.
        let read = machine.handle(
            .cacheEmitted(observation: observation, cache: ["before the write", "the write"], isEmpty: false),
            now: now
        )
        #expect(shownWrites(read).last == [])
    }
}

import Foundation
import TellerRx
import TellerTestSupport
import Testing

@testable import Teller

/// A write the server took stays applied to what observers see until the repository read data
/// that has it, even when the tag's invalidation mark was already gone when the repository
/// read it: a fetch that started after the take saved meanwhile, but the cache value it wrote
/// is still on its way (found by `RepositoryStateMachineRandomizedTests`, seed 67). A value the
/// cache subscription read before that fetch saved, still on its way when the repository learns
/// the mark is gone, does not take it away either (seeds 952 and 394): the subscription is
/// replaced, and only a value read from then on clears it. An invalidation read when
/// `Teller.clear()` had removed the metadata still counts as a mark (seed 10839).
@Suite struct TakenWriteShownUntilReadTests {
    typealias Machine = RepositoryStateMachine<TestRequirements, [String]>

    let octocat = TestRequirements(username: "octocat")
    let write = OutboxRecord(kind: "edit", tag: "Repos for octocat", payload: Data(), createdAt: Date())

    private func shownWrites(_ actions: [Machine.Action]) -> [[UUID]] {
        actions.compactMap { action in
            if case .emit(let state) = action { state.shownWrites.map(\.id) } else { nil }
        }
    }

    private func stored(_ seconds: Double, invalidated: Bool = false) -> TypedStoredFetch<Never> {
        TypedStoredFetch(lastFetched: Date(timeIntervalSince1970: seconds), isInvalidated: invalidated)
    }

    private func subscription(in actions: [Machine.Action]) -> Int? {
        actions.lazy.compactMap { action -> Int? in
            if case .observeCache(_, _, let observation) = action { observation } else { nil }
        }.first
    }

    /// An observed repository that shows `write` pending on a cache read before it; the
    /// subscription's number.
    private func observing(_ machine: inout Machine, now: Date, invalidated: Bool = false) throws -> Int {
        let started = machine.handle(
            .setRequirements(
                octocat,
                stored: stored(9_000, invalidated: invalidated),
                writes: TagWrites(pending: [write])
            ),
            now: now
        )
        let observation = try #require(subscription(in: started))
        _ = machine.handle(
            .cacheEmitted(observation: observation, cache: ["before the write"], isEmpty: false),
            now: now
        )
        return observation
    }

    /// A machine with one observer: the cache is read for observers only.
    private func manualMachine() -> Machine {
        var machine = Machine(
            configuration: .init(automaticallyRefresh: false, maxAgeOfCache: Period(unit: 1, component: .hour))
        )
        _ = machine.handle(.observerAdded(Machine.Observer(id: 1, observer: AnyObserver { _ in })), now: Date())
        return machine
    }

    @Test func aTakenWriteStaysShownWhenTheMarkWasGoneBeforeTheRepositoryReadIt() throws {
        let now = Date(timeIntervalSince1970: 10_000)
        var machine = manualMachine()
        _ = try observing(&machine, now: now)

        // The outbox's invalidation, read after a later fetch saved: no mark any more.
        _ = machine.handle(.metadataChanged(tag: octocat.tag, stored: stored(9_500), invalidation: true), now: now)
        let taken = machine.handle(.writesChanged(TagWrites(), sent: write), now: now)
        #expect(shownWrites(taken).last == [write.id])

        // The value that fetch saved arrives, read by the new subscription: it has the write.
        let reread = try #require(subscription(in: taken))
        let read = machine.handle(
            .cacheEmitted(observation: reread, cache: ["before the write", "the write"], isEmpty: false),
            now: now
        )
        #expect(shownWrites(read).last == [])
    }

    @Test func aValueReadBeforeTheRefetchSavedKeepsTheTakenWriteShownWhenTheMarkGoesMeanwhile() throws {
        let now = Date(timeIntervalSince1970: 10_000)
        var machine = manualMachine()
        let observation = try observing(&machine, now: now, invalidated: true)
        _ = machine.handle(.writesChanged(TagWrites(), sent: write), now: now)

        // Another repository's fetch saved and cleared the mark; the value read before it is
        // still on its way.
        let cleared = machine.handle(.metadataChanged(tag: octocat.tag, stored: stored(9_500)), now: now)
        try expectOnlyTheNewSubscriptionClearsTheWrite(&machine, old: observation, replacedBy: cleared, now: now)
    }

    @Test func aValueReadBeforeTheRefetchSavedKeepsTheTakenWriteShownWhenTheMarkNeverReachedTheRepository()
        throws
    {
        let now = Date(timeIntervalSince1970: 10_000)
        var machine = manualMachine()
        let observation = try observing(&machine, now: now)

        // `Teller.clear()` wiped the outbox's mark before the repository read it: the take is
        // all it hears, while a value read before the refetch is on its way.
        let taken = machine.handle(.writesChanged(TagWrites(), sent: write), now: now)
        try expectOnlyTheNewSubscriptionClearsTheWrite(&machine, old: observation, replacedBy: taken, now: now)
    }

    @Test func aTakenWriteStaysShownWhenTheMarkArrivedWithTheMetadataCleared() throws {
        let now = Date(timeIntervalSince1970: 10_000)
        var machine = manualMachine()
        let observation = try observing(&machine, now: now)

        // The outbox's invalidation, read after `Teller.clear()` removed the metadata: the mark
        // stands (only a save clears it, and a save writes metadata).
        _ = machine.handle(.metadataChanged(tag: octocat.tag, stored: nil, invalidation: true), now: now)
        let taken = machine.handle(.writesChanged(TagWrites(), sent: write), now: now)
        #expect(shownWrites(taken).last == [write.id])

        // The store still holds the list saved before the take, and the subscription reads it.
        let old = machine.handle(
            .cacheEmitted(
                observation: subscription(in: taken) ?? observation,
                cache: ["before the write"],
                isEmpty: false
            ),
            now: now
        )
        #expect(shownWrites(old).last == [write.id])

        // A fetch that started after the take saved: the mark is gone, and what is read from then
        // on has the write.
        let saved = machine.handle(.metadataChanged(tag: octocat.tag, stored: stored(9_500)), now: now)
        let reread = try #require(subscription(in: saved))
        let read = machine.handle(
            .cacheEmitted(observation: reread, cache: ["before the write", "the write"], isEmpty: false),
            now: now
        )
        #expect(shownWrites(read).last == [])
    }

    /// The value the old subscription read before the refetch saved keeps the write shown; the
    /// one the subscription `actions` started reads, which has it, clears it.
    private func expectOnlyTheNewSubscriptionClearsTheWrite(
        _ machine: inout Machine,
        old observation: Int,
        replacedBy actions: [Machine.Action],
        now: Date
    ) throws {
        let old = machine.handle(
            .cacheEmitted(observation: observation, cache: ["before the write"], isEmpty: false),
            now: now
        )
        #expect(shownWrites(old).allSatisfy { $0 == [write.id] })

        let reread = try #require(subscription(in: actions))
        let read = machine.handle(
            .cacheEmitted(observation: reread, cache: ["before the write", "the write"], isEmpty: false),
            now: now
        )
        #expect(shownWrites(read).last == [])
    }
}

import Foundation
import TellerTestSupport
import Testing

@testable import Teller

/// The paging machine under long random sequences of inputs, in a model of its engine and data
/// source (``PagingMachineModel``), without threads. Each seed is one sequence: three rounds of
/// random app calls and asynchronous progress, each followed by coming to rest. The inputs
/// include another repository refreshing the tag, `clear()`, invalidation, refresh triggers,
/// observers coming and going, and flights that fail and are tried again.
///
/// After every step: every input leads to an action (`.quiet` with its reason when nothing is to
/// be done), every refresh call answered at most once, nothing observed, fetched or
/// saved for other requirements than the current ones, the store holds pages 1…n each once, no
/// next page or trim runs beside a first-page flight of the current requirements, and a failed
/// flight starts no automatic refresh by itself. At rest: every call that did not leave answered
/// exactly once, no wait for a flight left, nothing shows refreshing or loading a next page, and
/// what observers see (pages, `areMorePages`, age) agrees with the store and the metadata.
///
/// With writes (``randomSequencesWithWritesShowThePagesWithThePendingWritesOnTop()``), an
/// ``OutboxQueueModel`` (the real send queue, no threads) adds enqueues, sends that succeed (the
/// outbox invalidates the tag, then says the write left), fail and are retried or stall, or are
/// rejected, discards, acknowledged rejections, the network going down and back, and
/// relaunches (a new machine, the journal's pending writes already queued). Also checked after
/// every step: (a) every state lists the tag's pending writes as the repository last read them
/// (the outbox's own at rest), shows before them only writes the server took, in order, with the
/// last failure read, and observers see the pages with those writes applied; (b) every pending
/// write is seen on a non-empty list, a rejected one no longer once its leaving was read, and a
/// write the server took leaves the shown writes only as the cache is read; (c) after draining,
/// every write ended sent (once at the server), rejected or discarded, nothing pending; (d) one
/// send per scope at a time.
///
/// `TELLER_SEED=<n>` replays one seed; `TELLER_SEED_COUNT=<n>` runs more.
@Suite struct PagingRandomizedTests {
    private struct Failure: Error {
        let seed: UInt64
        let violation: String
        let trace: [String]
    }

    /// Plays one seed; a violation is returned with the sequence's trace.
    private static func play(seed: UInt64, tracing: Bool, withWrites: Bool = false) -> Failure? {
        var model = PagingMachineModel(seed: seed, tracing: tracing, withWrites: withWrites)
        do {
            for _ in 0..<3 {
                try model.run(steps: 40)
                try model.comeToRest()
            }
            try model.drainOutbox()
            return nil
        } catch {
            return Failure(seed: seed, violation: "\(error)", trace: model.trace)
        }
    }

    @Test func randomSequencesKeepEveryInvariantOfThePagingMachine() {
        Self.playSeeds(ciCount: 1_500, withWrites: false)
    }

    @Test func randomSequencesWithWritesShowThePagesWithThePendingWritesOnTop() {
        Self.playSeeds(ciCount: 400, withWrites: true)
    }

    private static func playSeeds(ciCount: Int, withWrites: Bool) {
        var failures: [Failure] = []
        for seed in RandomizedTestSeeds.seeds(ciCount: ciCount) {
            if let failure = Self.play(seed: seed, tracing: false, withWrites: withWrites) { failures.append(failure) }
        }
        guard let first = failures.first else { return }
        // The first failing seed, replayed with a trace, and a few more seeds with what they broke.
        let traced = Self.play(seed: first.seed, tracing: true, withWrites: withWrites) ?? first
        let others = failures.prefix(12).map { "seed \($0.seed): \($0.violation)" }
        Issue.record(
            """
            \(failures.count) sequences broke an invariant:
            \(others.joined(separator: "\n"))
            Seed \(first.seed) (replay with TELLER_SEED=\(first.seed)) ends:
            \(traced.trace.suffix(80).joined(separator: "\n"))
            """
        )
    }

    /// The model itself catches what the invariants describe: a machine whose next page is saved
    /// twice would break "pages 1…n each once" (guards against a model that checks nothing).
    @Test func theModelSeesAStoreThatHoldsAPageTwice() {
        var model = PagingMachineModel(seed: 1)
        #expect(throws: PagingMachineModel.Violation.self) {
            try model.corruptStoreForTesting()
        }
    }
}

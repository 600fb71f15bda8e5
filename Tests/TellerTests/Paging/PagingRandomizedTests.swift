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
/// `TELLER_SEED=<n>` replays one seed; `TELLER_SEED_COUNT=<n>` runs more.
@Suite struct PagingRandomizedTests {
    private struct Failure: Error {
        let seed: UInt64
        let violation: String
        let trace: [String]
    }

    /// Plays one seed; a violation is returned with the sequence's trace.
    private static func play(seed: UInt64, tracing: Bool) -> Failure? {
        var model = PagingMachineModel(seed: seed, tracing: tracing)
        do {
            for _ in 0..<3 {
                try model.run(steps: 40)
                try model.comeToRest()
            }
            return nil
        } catch {
            return Failure(seed: seed, violation: "\(error)", trace: model.trace)
        }
    }

    @Test func randomSequencesKeepEveryInvariantOfThePagingMachine() {
        var failures: [Failure] = []
        for seed in RandomizedTestSeeds.seeds(ciCount: 1_500) {
            if let failure = Self.play(seed: seed, tracing: false) { failures.append(failure) }
        }
        guard let first = failures.first else { return }
        // The first failing seed, replayed with a trace, and a few more seeds with what they broke.
        let traced = Self.play(seed: first.seed, tracing: true) ?? first
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

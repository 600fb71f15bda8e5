import Foundation
import TellerTestSupport
import Testing

@testable import Teller

/// Long seeded random input sequences through two repositories' machines, with the engine's
/// part played by ``RepositoryEngineModel`` (the real coordinator and refresh calls, no threads),
/// checking the engine's invariants after every step:
/// 1. the machine answers every call at most once, and every caller that did not leave exactly
///    once; at rest no repository still waits for a flight;
/// 2. at rest nothing shows a fetch, and what each repository shows agrees with the stores;
/// 3. nothing is emitted for requirements other than the current ones, and "just finished" or an
///    error only right after a flight of theirs ended that way;
/// 4. at most one flight per tag;
/// 5. a failed flight does not start another by itself (no refresh storm); an invalidation, the
///    app becoming active, or a successful flight ending while its tag is still invalidated may;
/// 6. every input leads to an action (`.quiet` with its reason when nothing is to be done), and a
///    value of the cache subscription the engine holds is never called stale.
///
/// Flights may fail and be tried again (the retry policy's events) before they end.
///
/// A failure prints its seed; `TELLER_SEED=<seed> swift test --filter RepositoryStateMachineRandomizedTests`
/// replays that one sequence and prints every action.
@Suite struct RepositoryStateMachineRandomizedTests {
    static let sequences = 2_000
    static let steps = 60

    let octocat = TestRequirements(username: "octocat")
    let hubot = TestRequirements(username: "hubot")

    @Test func randomSequencesKeepTheEngineInvariants() {
        let seeds = RandomizedTestSeeds.seeds(ciCount: Self.sequences)
        var failures = 0
        for seed in seeds {
            guard let issue = run(seed: seed, verbose: false).issues.first else { continue }
            failures += 1
            if failures <= 3 {
                // The same seed again, tracing every step and action.
                let trace = run(seed: seed, verbose: true).trace
                let lines = seeds.count == 1 ? trace[...] : trace.suffix(40)
                Issue.record(
                    """
                    seed \(seed): \(issue) (replay with TELLER_SEED=\(seed))
                    \(lines.joined(separator: "\n"))
                    """
                )
            }
        }
        #expect(failures == 0, "\(failures) of \(seeds.count) sequences broke an invariant")
    }

    private func run(seed: UInt64, verbose: Bool) -> RepositoryEngineModel {
        var random = SplitMix64(seed: seed)
        let hour = 3_600
        let model = RepositoryEngineModel(
            repositories: 2,
            configuration: .init(
                automaticallyRefresh: random.percent(80),
                maxAgeOfCache: Period(unit: 1, component: .hour)
            ),
            now: Date(timeIntervalSince1970: 100_000)
        )
        model.verbose = verbose
        for tag in [octocat.tag, hubot.tag] {
            let age = random.pick([nil, 60, 2 * hour, -hour])
            model.seed(
                tag: tag,
                cache: age == nil ? nil : ["\(tag) from an earlier launch"],
                lastFetched: age.map { model.now - Double($0) }
            )
        }
        for step in 0..<Self.steps {
            let traced = model.trace.count
            let action = randomStep(model, &random)
            model.note("step \(step): \(action())", at: traced)
            model.checkQuiet()
            if !model.issues.isEmpty { return model }
        }
        model.note("settle")
        if model.settle(using: &random) {
            model.checkAtRest()
        }
        return model
    }

    private enum Step {
        case processMail, setRequirements, observe, refresh, refreshIfNoCache, leave, progressFlight
        case deliverCache, failCache, writeCache, metadataElsewhere, clear, invalidate, appBecameActive
        case timePasses, release, settle
    }

    /// Takes one random step and describes it.
    private func randomStep(_ model: RepositoryEngineModel, _ random: inout SplitMix64) -> () -> String {
        let live = model.live
        let withMail = model.engines.filter { !$0.mail.isEmpty }
        let observing = model.engines.filter { $0.subscription != nil }
        // The store sends a value on subscription and after a change, never twice the same.
        let sending = observing.filter { $0.subscription?.hasPendingValue == true }
        let callers = model.waitingCallers
        let flights = model.flightIDs
        var steps: [Step] = [
            .setRequirements, .observe, .refresh, .refreshIfNoCache, .writeCache, .metadataElsewhere, .clear,
            .invalidate, .appBecameActive, .timePasses, .release, .settle,
        ]
        var weights = [6, 6, 8, 4, 2, 2, 2, 2, 1, 6, 2, 2]
        func offer(_ step: Step, weight: Int, if available: Bool) {
            guard available else { return }
            steps.append(step)
            weights.append(weight)
        }
        offer(.processMail, weight: 40, if: !withMail.isEmpty)
        offer(.leave, weight: 5, if: !callers.isEmpty)
        offer(.progressFlight, weight: 14, if: !flights.isEmpty)
        offer(.deliverCache, weight: 12, if: !sending.isEmpty)
        offer(.failCache, weight: 2, if: !observing.isEmpty)

        let index = random.below(live.count)
        let engine = live[index]
        let tag = random.pick([octocat.tag, hubot.tag])
        switch random.pick(steps, weights: weights) {
        case .processMail:
            let engine = random.pick(withMail)
            model.processMail(of: engine)
            return { "r\(engine.id) processes its mail" }
        case .setRequirements:
            let requirements = random.percent(15) ? nil : random.pick([octocat, hubot])
            model.setRequirements(requirements, of: engine)
            return { "r\(engine.id).requirements = \(requirements?.username ?? "nil")" }
        case .observe:
            model.observe(engine)
            return { "r\(engine.id).observe()" }
        case .refresh:
            let force = random.percent(50)
            let caller = model.refresh(engine, force: force)
            return { "r\(engine.id).refresh(force: \(force)) → caller \(caller.map(String.init) ?? "threw")" }
        case .refreshIfNoCache:
            let caller = model.refresh(engine, force: false, ifNoCache: true)
            return { "r\(engine.id).refreshIfNoCache() → caller \(caller.map(String.init) ?? "threw")" }
        case .leave:
            let caller = random.pick(callers)
            model.leave(caller)
            return { "caller \(caller) leaves" }
        case .progressFlight:
            let flight = random.pick(flights)
            let outcome = random.pick(RepositoryEngineModel.FlightOutcome.allCases)
            model.progress(flight, outcome)
            return { "flight \(flight): \(outcome)" }
        case .deliverCache:
            let engine = random.pick(sending)
            model.deliverCache(to: engine)
            return { "the store sends r\(engine.id) its value" }
        case .failCache:
            let engine = random.pick(observing)
            model.failCache(of: engine)
            return { "r\(engine.id)'s cache observation fails" }
        case .writeCache:
            model.writeCache(tag: tag)
            return { "the app writes \(tag)" }
        case .metadataElsewhere:
            model.metadataWrittenElsewhere(tag: tag)
            return { "another repository fetched \(tag)" }
        case .clear:
            model.clear()
            return { "Teller.clear()" }
        case .invalidate:
            model.invalidate(tag: tag)
            return { "Teller.invalidate(tag: \(tag))" }
        case .appBecameActive:
            model.appBecameActive()
            return { "Teller.appDidBecomeActive()" }
        case .timePasses:
            let seconds = 1 + random.below(5_000)
            model.advanceTime(by: seconds)
            return { "\(seconds) s pass" }
        case .release:
            model.release(index)
            let replacement = model.live[index].id
            return { "r\(engine.id) is released; r\(replacement) takes its place" }
        case .settle:
            if model.settle(using: &random) { model.checkAtRest() }
            return { "settle" }
        }
    }
}

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
///    app becoming active, a successful flight ending while its tag is still invalidated, or the
///    last pending write to the tag leaving (an invalidation held back for it) may;
/// 6. every input leads to an action (`.quiet` with its reason when nothing is to be done), and a
///    value of the cache subscription the engine holds is never called stale.
///
/// Flights may fail and be tried again (the retry policy's events) before they end.
///
/// With writes (``randomSequencesWithWritesShowTheServersDataWithThePendingWritesOnTop()``), an
/// ``OutboxQueueModel`` (the real send queue, no threads) adds enqueues, sends that succeed (the
/// server's data gains the write; the outbox invalidates the tag, then says the write left), fail
/// and are retried after a delay or stall until a trigger, or are rejected, discards,
/// acknowledged rejections, the network going down (nothing sent) and back, and relaunches (new
/// repositories, the journal's pending writes already queued; marks, flights and sends under way
/// lost). Fetches save the server's data as it was when they started, unless a fetch that
/// started after a mark they predate saved first (`Invalidations`). Also checked, after
/// every step:
/// - (a) every state lists the tag's pending writes as the repository last read them from the
///   outbox (the outbox's own at rest), shows before them only writes the server took, in
///   order, with the last failure read; observers see the stored data with those writes applied
///   (`CacheState.applyingPendingWrites` and the data source's pure function);
/// - (b) what observers see of a read cache holds every write pending or taken by the server
///   that the repository was told of: a taken write leaves the writes shown only once the data
///   read has it (a fetch that started after the take delivered); a rejected one is not seen
///   once its repository read that it left;
/// - (c) after draining (network back, every send answered), every write ended sent (the server
///   has it once) or rejected or discarded, and nothing is pending;
/// - (d) one send per scope at a time, at most ``OutboxQueueModel/maxConcurrentSends`` in all;
/// - (e) the invariants above, and the stated reasons of `.quiet` and ignored events.
///
/// A failure prints its seed; `TELLER_SEED=<seed> swift test --filter RepositoryStateMachineRandomizedTests`
/// replays that one sequence and prints every action.
@Suite struct RepositoryStateMachineRandomizedTests {
    static let sequences = 2_000
    static let steps = 60
    static let sequencesWithWrites = 500
    static let stepsWithWrites = 80

    let octocat = TestRequirements(username: "octocat")
    let hubot = TestRequirements(username: "hubot")

    @Test func randomSequencesKeepTheEngineInvariants() {
        playSeeds(ciCount: Self.sequences, withWrites: false)
    }

    @Test func randomSequencesWithWritesShowTheServersDataWithThePendingWritesOnTop() {
        playSeeds(ciCount: Self.sequencesWithWrites, withWrites: true)
    }

    private func playSeeds(ciCount: Int, withWrites: Bool) {
        let seeds = RandomizedTestSeeds.seeds(ciCount: ciCount)
        var failures = 0
        for seed in seeds {
            let model = run(seed: seed, withWrites: withWrites, verbose: false)
            guard let issue = (model.issues + (model.outbox?.issues ?? [])).first else { continue }
            failures += 1
            if failures <= 3 {
                // The same seed again, tracing every step and action.
                let trace = run(seed: seed, withWrites: withWrites, verbose: true).trace
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

    private func run(seed: UInt64, withWrites: Bool, verbose: Bool) -> RepositoryEngineModel {
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
        let outbox = withWrites ? OutboxQueueModel() : nil
        if let outbox {
            model.attach(outbox)
            // Writes an earlier launch left pending.
            for _ in 0..<random.below(3) {
                outbox.enqueue(tag: random.pick([octocat.tag, hubot.tag]), now: model.now)
            }
        }
        for tag in [octocat.tag, hubot.tag] {
            let age = random.pick([nil, 60, 2 * hour, -hour])
            model.seed(
                tag: tag,
                cache: age == nil ? nil : ["\(tag) from an earlier launch"],
                lastFetched: age.map { model.now - Double($0) }
            )
        }
        for step in 0..<(withWrites ? Self.stepsWithWrites : Self.steps) {
            let traced = model.trace.count
            let action = randomStep(model, &random)
            model.note("step \(step): \(action())", at: traced)
            model.checkQuiet()
            if !model.issues.isEmpty || outbox?.issues.isEmpty == false { return model }
        }
        model.note("settle")
        if let outbox {
            model.note("drain: the network is back, every send is answered")
            if drain(model, outbox, &random) {
                model.checkAtRest()
                outbox.checkDrained()
            }
        } else if model.settle(using: &random) {
            model.checkAtRest()
        }
        return model
    }

    /// Everything in progress happens, the network comes back and the server answers every
    /// send (taking or rejecting it) until no write is left. `false` if that never ends.
    private func drain(_ model: RepositoryEngineModel, _ outbox: OutboxQueueModel, _ random: inout SplitMix64) -> Bool {
        model.networkCameBack()
        for _ in 0..<1_000 {
            guard model.settle(using: &random) else { return false }
            if let id = outbox.sending.keys.min(by: { $0.uuidString < $1.uuidString }) {
                outbox.answer(id, random.percent(80) ? .sent : .rejected)
            } else if let scope = outbox.waitingScopes.min() {
                outbox.retryDue(scope)
            } else {
                return true
            }
        }
        model.fail(nil, "the outbox never drained")
        return false
    }

    private enum Step {
        case processMail, setRequirements, observe, refresh, refreshIfNoCache, leave, progressFlight
        case deliverCache, failCache, writeCache, metadataElsewhere, clear, invalidate, appBecameActive
        case timePasses, release, settle
        case enqueue, answerSend, retryDue, discard, acknowledge, networkDown, networkUp, relaunch
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
        if let outbox = model.outbox {
            offer(.enqueue, weight: 8, if: true)
            offer(.answerSend, weight: 12, if: !outbox.sending.isEmpty)
            offer(.retryDue, weight: 4, if: !outbox.waitingScopes.isEmpty)
            offer(.discard, weight: 1, if: !outbox.queue.isEmpty)
            offer(.acknowledge, weight: 1, if: !outbox.rejections.isEmpty)
            offer(.networkDown, weight: 2, if: !outbox.isNetworkDown)
            offer(.networkUp, weight: 3, if: outbox.isNetworkDown)
            offer(.relaunch, weight: 1, if: true)
        }

        let index = random.below(live.count)
        let engine = live[index]
        let tag = random.pick([octocat.tag, hubot.tag])
        let step = random.pick(steps, weights: weights)
        switch step {
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
        default:
            return writesStep(step, model, tag: tag, &random)
        }
    }

    /// Takes one of the outbox's steps and describes it.
    private func writesStep(
        _ step: Step,
        _ model: RepositoryEngineModel,
        tag: String,
        _ random: inout SplitMix64
    ) -> () -> String {
        guard let outbox = model.outbox else { return { "no outbox" } }
        switch step {
        case .enqueue:
            // Most writes are sent in their tag's order; some share one scope across tags.
            let scope = random.percent(25) ? "shared" : nil
            let record = outbox.enqueue(tag: tag, scope: scope, now: model.now)
            return { "enqueue \(OutboxQueueModel.text(of: record)) (scope \(record.scope))" }
        case .answerSend:
            let id = random.pick(outbox.sending.keys.sorted { $0.uuidString < $1.uuidString })
            let text = outbox.sending[id].map(OutboxQueueModel.text(of:)) ?? "?"
            let answer = random.pick(OutboxQueueModel.Answer.allCases, weights: [6, 2, 1, 2])
            outbox.answer(id, answer)
            return { "the server answers \(text): \(answer)" }
        case .retryDue:
            let scope = random.pick(outbox.waitingScopes.sorted())
            outbox.retryDue(scope)
            return { "the retry delay of scope \(scope) ran out" }
        case .discard:
            let record = random.pick(outbox.queue.pending)
            outbox.discard(record.id)
            return { "outbox.discard(\(OutboxQueueModel.text(of: record)))" }
        case .acknowledge:
            outbox.acknowledgeRejection()
            return { "the app acknowledges the oldest rejection" }
        case .networkDown:
            model.networkWentDown()
            return { "the network goes down" }
        case .networkUp:
            model.networkCameBack()
            return { "the network is back" }
        default:
            model.relaunch(using: &random)
            for engine in model.live where random.percent(70) {
                model.setRequirements(random.pick([octocat, hubot]), of: engine)
                model.observe(engine)
            }
            return { "the app is killed and launched again; \(outbox.queue.pending.count) writes pending" }
        }
    }
}

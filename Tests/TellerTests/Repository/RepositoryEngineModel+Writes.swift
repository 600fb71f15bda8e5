import Foundation
import TellerTestSupport

@testable import Teller

/// The app's writes in ``RepositoryEngineModel``: an ``OutboxQueueModel`` whose notices reach
/// the repositories as the outbox's reach the engines (an invalidation of the tag, then the
/// writes changed), and the checks of what the states say of them.
extension RepositoryEngineModel {
    /// Sends writes through `outbox` from now on.
    func attach(_ outbox: OutboxQueueModel) {
        self.outbox = outbox
        outbox.notify = { [unowned self] notice in
            switch notice {
            case .invalidated(let tag):
                invalidate(tag: tag)
            case .writesChanged(let tag, let sent):
                for engine in engines where !engine.isReleased {
                    engine.mail.append(.writesChanged(tag: tag, sent: sent))
                }
            }
        }
    }

    /// `networkDidBecomeUnavailable()`.
    func networkWentDown() {
        outbox?.networkWentDown()
    }

    /// `networkDidBecomeAvailable()`: the outbox goes on, observed repositories may refresh.
    func networkCameBack() {
        outbox?.resume()
        for engine in engines where !engine.isReleased {
            engine.mail.append(.input(.triggered(.networkAvailable)))
        }
    }

    /// What a state says of the writes agrees with the outbox as the repository last read it,
    /// and observers see the stored data with those writes applied.
    func checkWrites(_ state: State, emittedBy engine: Engine) {
        guard let outbox else { return }
        for violation in engine.writes.violations(
            pendingWrites: state.pendingWrites,
            shownWrites: state.shownWrites,
            writeError: state.writeError
        ) {
            fail(engine, violation)
        }
        guard state.cacheExists, !state.isLoadingCache, state.cacheReadError == nil else { return }
        // As the engine's broadcast shows it, with the data source's pure function.
        let shown = state.applyingPendingWrites { cache, _ in
            ShownWritesExpectation.apply(state.shownWrites, to: cache)
        }
        if shown.cache != ShownWritesExpectation.apply(state.shownWrites, to: state.cache) {
            fail(
                engine,
                "(a) observers see \(String(describing: shown.cache)), not \(String(describing: state.cache)) ⊕ its writes"
            )
        }
        let rejected = outbox.enqueued.filter { outbox.fates[$0.id] == .rejected }.map(OutboxQueueModel.text(of:))
        for violation in engine.writes.violations(shown: shown.cache, rejected: Set(rejected)) {
            fail(engine, violation)
        }
        let unseen = engine.writes.takenButNotSeen(shown: shown.cache)
        if !unseen.isEmpty {
            fail(engine, "(b) observers see \(shown.cache ?? []), without \(unseen), which the server took")
        }
    }

    /// A write the server took leaves the writes a repository shows only as it reads the cache
    /// (``RepositoryMachine/Active/takenWrites``), or with a new session.
    func checkTakenWritesLeave(_ state: State, emittedBy engine: Engine, handling input: Machine.Input) {
        let shown = Set(state.shownWrites.map(\.id))
        defer { engine.shownWriteIDs = shown }
        if case .cacheEmitted = input { return }
        let left = engine.writes.taken.filter { engine.shownWriteIDs.contains($0.id) && !shown.contains($0.id) }
        if !left.isEmpty {
            fail(
                engine,
                "(b) \(left.map(OutboxQueueModel.text(of:))), taken by the server, left the shown writes on \("\(input)".prefix { $0 != "(" })"
            )
        }
    }

    /// At rest, each repository's latest state lists the outbox's pending writes for its tag.
    func checkWritesAtRest() {
        guard let outbox else { return }
        for engine in live {
            guard let tag = engine.machine.requirements?.tag, let latest = engine.latest else { continue }
            let pending = outbox.writes(tag: tag).pending
            if latest.pendingWrites.map(\.id) != pending.map(\.id) {
                fail(engine, "at rest lists \(latest.pendingWrites.count) pending writes, the outbox \(pending.count)")
            }
        }
    }
}

import Foundation
import TellerTestSupport

@testable import Teller

/// The app's writes in ``PagingMachineModel``: an ``OutboxQueueModel`` whose notices reach the
/// mailbox as the outbox's reach the engine (an invalidation of the tag, then the writes
/// changed), relaunches, and the checks of what the states say of the writes.
extension PagingMachineModel {
    mutating func attachOutbox() {
        let outbox = OutboxQueueModel()
        outbox.notify = { [notices] notice in notices.notices.append(notice) }
        self.outbox = outbox
        // Writes an earlier launch left pending.
        for _ in 0..<random.int(0...2) {
            outbox.enqueue(tag: random.pick([Self.octocat, Self.hubot]).tag, now: now)
        }
        postNotices()
    }

    /// Posts the outbox's notices to the mailbox, in order.
    mutating func postNotices() {
        let posted = notices.notices
        notices.notices = []
        for notice in posted {
            switch notice {
            case .invalidated(let tag):
                invalidated[tag] = nextFlightID
                post(.metadataChanged(tag: tag, invalidation: true))
            case .writesChanged(let tag, let sent):
                post(.writesChanged(tag: tag, sent: sent))
            }
        }
    }

    /// One random call of the app, the network or the server about writes; `false` if none
    /// applies now.
    mutating func randomWritesCall() -> Bool {
        guard let outbox else { return false }
        enum Call {
            case enqueue, answer, retryDue, discard, acknowledge, networkDown, networkUp, relaunch
        }
        let call = random.pick(weighted: [
            (5, Call.enqueue), (outbox.sending.isEmpty ? 0 : 8, .answer),
            (outbox.waitingScopes.isEmpty ? 0 : 3, .retryDue), (outbox.queue.isEmpty ? 0 : 1, .discard),
            (outbox.rejections.isEmpty ? 0 : 1, .acknowledge), (outbox.isNetworkDown ? 0 : 1, .networkDown),
            (outbox.isNetworkDown ? 2 : 0, .networkUp), (1, .relaunch),
        ])
        switch call {
        case .enqueue:
            let scope = random.percent(25) ? "shared" : nil
            let record = outbox.enqueue(tag: random.pick([Self.octocat, Self.hubot]).tag, scope: scope, now: now)
            note("app: enqueue \(OutboxQueueModel.text(of: record)) (scope \(record.scope))")
        case .answer:
            let id = random.pick(outbox.sending.keys.sorted { $0.uuidString < $1.uuidString })
            let answer = random.pick(OutboxQueueModel.Answer.allCases, weights: [6, 2, 1, 2])
            note("server: answers \(outbox.sending[id].map(OutboxQueueModel.text(of:)) ?? "?"): \(answer)")
            outbox.answer(id, answer)
        case .retryDue:
            let scope = random.pick(outbox.waitingScopes.sorted())
            note("outbox: the retry delay of scope \(scope) ran out")
            outbox.retryDue(scope)
        case .discard:
            let record = random.pick(outbox.queue.pending)
            note("app: discard \(OutboxQueueModel.text(of: record))")
            outbox.discard(record.id)
        case .acknowledge:
            note("app: acknowledges the oldest rejection")
            outbox.acknowledgeRejection()
        case .networkDown:
            note("outside: the network goes down")
            outbox.networkWentDown()
        case .networkUp:
            networkCameBack()
        case .relaunch:
            relaunch()
        }
        postNotices()
        return true
    }

    mutating func networkCameBack() {
        note("outside: the network is back")
        outbox?.resume()
        post(.input(.triggered(.networkAvailable)))
        postNotices()
    }

    /// The app is killed and launched again: the machine, its mailbox, calls, flights, the
    /// lane's writes not done, the next page and the invalidation marks are gone; the stores,
    /// the metadata and the outbox's journal stay.
    mutating func relaunch() {
        note("the app is killed and launched again; \(outbox?.queue.pending.count ?? 0) writes pending")
        machine = Machine(
            configuration: .init(automaticallyRefresh: automaticallyRefresh, maxAgeOfCache: Self.maxAgeOfCache),
            extension: PagingExtension<DataSource>(firstPage: PageNumber(number: 1))
        )
        mailbox = []
        mailboxHead = 0
        registered = []
        membership = nil
        latest = nil
        expectsAutomaticRefreshPaused = false
        observerIDs = []
        flights = [:]
        lane = []
        subscription = nil
        nextPageFetch = nil
        invalidated = [:]
        writes = ShownWritesExpectation()
        shownWriteIDs = []
        var random = self.random
        outbox?.relaunch { _ in random.percent(50) }
        self.random = random
        requested = self.random.percent(70) ? self.random.pick([Self.octocat, Self.hubot]) : nil
        if let requested {
            post(.setRequirements(requested))
            subscribeObserver()
        }
    }

    /// The network comes back and the server answers every send (taking or rejecting it),
    /// coming to rest after each, until no write is left; then every write ended.
    mutating func drainOutbox() throws {
        guard let outbox else { return }
        note("drain: the network is back, every send is answered")
        networkCameBack()
        for _ in 0..<1_000 {
            try comeToRest()
            if let id = outbox.sending.keys.min(by: { $0.uuidString < $1.uuidString }) {
                outbox.answer(id, random.percent(80) ? .sent : .rejected)
            } else if let scope = outbox.waitingScopes.min() {
                outbox.retryDue(scope)
            } else {
                outbox.checkDrained()
                if let issue = outbox.issues.first { throw Violation(description: issue) }
                return try checkWritesAtRest()
            }
            postNotices()
        }
        throw Violation(description: "the outbox never drained")
    }

    /// What a state says of the writes agrees with the outbox as the repository last read it; a
    /// write the server took leaves the shown writes only as the cache is read; observers see
    /// the pages with the writes applied, every pending one among them.
    mutating func checkWrites(_ state: State, handling input: Input) throws {
        guard let outbox else { return }
        if let violation = writes.violations(
            pendingWrites: state.pendingWrites,
            shownWrites: state.shownWrites,
            writeError: state.writeError
        ).first {
            throw Violation(description: violation)
        }
        let shown = Set(state.shownWrites.map(\.id))
        defer { shownWriteIDs = shown }
        let left = writes.taken.filter { shownWriteIDs.contains($0.id) && !shown.contains($0.id) }
        if case .cacheEmitted = input {
        } else if !left.isEmpty {
            throw Violation(
                description:
                    "(b) \(left.map(OutboxQueueModel.text(of:))), taken by the server, left the shown writes on "
                    + "\(input)".prefix { $0 != "(" }
            )
        }
        // An empty list has no pages to show writes on (`PagingEffects`).
        guard state.cacheExists, !state.isLoadingCache, state.cacheReadError == nil, let pages = state.cache else {
            return
        }
        let applied = state.applyingPendingWrites { paged, _ in
            paged.flatMap { paged in
                ShownWritesExpectation.apply(state.shownWrites, to: paged.cache).map {
                    PagedCache(areMorePages: paged.areMorePages, cache: $0, isLoadingNextPage: paged.isLoadingNextPage)
                }
            }
        }
        let expected = ShownWritesExpectation.apply(state.shownWrites, to: pages.cache)
        if applied.cache?.cache != expected || applied.cache?.areMorePages != pages.areMorePages {
            throw Violation(
                description: "(a) observers see \(String(describing: applied.cache)), not \(pages) ⊕ its writes"
            )
        }
        let rejected = outbox.enqueued.filter { outbox.fates[$0.id] == .rejected }.map(OutboxQueueModel.text(of:))
        if let violation = writes.violations(shown: applied.cache?.cache, rejected: Set(rejected)).first {
            throw Violation(description: violation)
        }
    }

    /// At rest, the latest state lists the outbox's pending writes for its tag.
    func checkWritesAtRest() throws {
        guard let outbox, !machine.isShutDown, let tag = machine.requirements?.tag, let latest else { return }
        let pending = outbox.writes(tag: tag).pending
        if latest.pendingWrites.map(\.id) != pending.map(\.id) {
            throw Violation(
                description:
                    "at rest the state lists \(latest.pendingWrites.count) pending writes, the outbox \(pending.count)"
            )
        }
    }
}

import Foundation
import TellerTestSupport

@testable import Teller

/// The engine half of ``PagingMachineModel``: the mailbox, the actions carried out as the real
/// engine and effects do, and the invariants.
extension PagingMachineModel {
    // MARK: The engine

    mutating func post(_ mail: Mail) {
        mailbox.append(mail)
    }

    mutating func process(_ mail: Mail) throws {
        switch mail {
        case .refresh(let first):
            // Something new: an app call lifts a pause.
            expectsAutomaticRefreshPaused = false
            var batch = [first]
            while mailboxHead < mailbox.count, case .refresh(let call) = mailbox[mailboxHead] {
                mailboxHead += 1
                batch.append(call)
            }
            try handle(.refresh(batch))
        case .flightLeft(let wait):
            let stored = machine.requirements.flatMap { storedFetch(forTag: $0.tag) }
            try handle(.flightLeft(wait, stored: stored))
        case .input(let input):
            switch input {
            case .observed, .triggered:
                // Something new; an interval refresh fetches whatever the pause says.
                expectsAutomaticRefreshPaused = false
            case .shutDown:
                if !machine.isShutDown { generation += 1 }
            default:
                break
            }
            try handle(input)
        case .setRequirements(let requirements):
            if !machine.isShutDown {
                generation += 1
                expectsAutomaticRefreshPaused = false
            }
            let stored = requirements.flatMap { storedFetch(forTag: $0.tag) }
            let writes = requirements.flatMap { outbox?.writes(tag: $0.tag) } ?? TagWrites()
            latest = nil
            self.writes = ShownWritesExpectation(told: writes)
            shownWriteIDs = []
            try handle(.setRequirements(requirements, stored: stored, writes: writes))
        case .flightFinished(let wait, let result, let saved):
            if case .failedError = result, machine.active?.flight?.id == wait {
                expectsAutomaticRefreshPaused = true
            }
            let stored = machine.requirements.flatMap { storedFetch(forTag: $0.tag) }
            try handle(.flightFinished(wait, result: result, stored: stored, saved: saved))
        case .metadataChanged(let changed, let invalidation):
            guard let tag = machine.requirements?.tag, changed == nil || changed == tag else { return }
            let stored = storedFetch(forTag: tag)
            // Clearing is something new; so is an invalidation (an explicit request).
            if stored == nil || invalidation { expectsAutomaticRefreshPaused = false }
            try handle(.metadataChanged(tag: tag, stored: stored, invalidation: invalidation))
        case .writesChanged(let changed, let sent):
            guard let tag = machine.requirements?.tag, changed == tag, let outbox else { return }
            let writes = outbox.writes(tag: tag)
            self.writes.read(writes, sent: sent)
            // The last write left: an invalidation held back for the writes refreshes now.
            if writes.pending.isEmpty { expectsAutomaticRefreshPaused = false }
            try handle(.writesChanged(writes, sent: sent))
        }
    }

    func storedFetch(forTag tag: String) -> TypedStoredFetch<Progress>? {
        metadata[tag].map {
            TypedStoredFetch(
                lastFetched: $0.lastFetched,
                extra: Progress(areMorePages: $0.areMorePages),
                isInvalidated: invalidated[tag] != nil
            )
        }
    }

    mutating func handle(_ input: Input) throws {
        note("machine <- \(Self.describe(input))")
        let actions = machine.handle(input, now: now)
        guard !actions.isEmpty else {
            throw Violation(description: "\(Self.describe(input)) was ignored without a stated reason")
        }
        for action in actions {
            try perform(action)
            if outbox != nil, case .emit(let state) = action { try checkWrites(state, handling: input) }
        }
    }

    mutating func perform(_ action: Action) throws {
        note("  -> \(Self.describe(action))")
        switch action {
        case .emit(let state):
            guard let current = machine.requirements, state.requirements as? TestRequirements == current else {
                throw Violation(description: "a state for other requirements than the current ones: \(state)")
            }
            latest = state
        case .emitSignedOut:
            guard machine.requirements == nil else {
                throw Violation(description: "signed out while requirements are set")
            }
            latest = nil
        case .observeCache(let requirements, let view, let observation):
            // The machine numbers its subscriptions itself: only the requirements are checked.
            try expectCurrent(requirements, generation, "observeCache")
            disposeSubscription()
            subscription = Subscription(tag: requirements.tag, view: view.number, observation: observation)
        case .stopObservingCache:
            disposeSubscription()
        case .joinFlight(let requirements, let wait):
            try expectCurrent(requirements, generation, "joinFlight")
            try joinFlight(requirements.tag, wait: wait)
        case .leaveFlight(let wait):
            leaveFlight(wait)
        case .respond(let responded, _):
            for call in responded {
                let number = callNumbers[ObjectIdentifier(call)] ?? 0
                answers[number, default: 0] += 1
                if answers[number, default: 0] > 1 {
                    throw Violation(description: "call \(number) answered twice")
                }
                // A call that left before its answer gets nothing: `RefreshCall` drops it.
                registered.remove(number)
            }
        case .greet, .complete, .log, .logs, .quiet, .startRefreshTimer, .stopRefreshTimer:
            break
        case .extra(let action):
            try perform(action)
        }
    }

    mutating func perform(_ action: PagingAction<DataSource>) throws {
        switch action {
        case .trimCache(let requirements, let session):
            try expectCurrent(requirements, generation, "trimCache")
            lane.append(.trim(tag: requirements.tag, session: session, generation: generation))
        case .endSession:
            cancelNextPageFetch()
            cancelQueuedSessionWrites()
        case .fetchNextPage(let id, let requirements, let current, _):
            try expectCurrent(requirements, generation, "fetchNextPage")
            guard current.number < serverPages else {
                throw Violation(description: "fetches the page after \(current.number), the last page")
            }
            let store = stores[requirements.tag] ?? []
            let writing = lane.contains { write in
                switch write {
                case .trim(let tag, _, _), .firstPage(let tag, _, _), .nextPage(let tag, _, _, _, _):
                    tag == requirements.tag
                }
            }
            let changePending = mailbox[mailboxHead...].contains { mail in
                if case .metadataChanged = mail { return true }
                return false
            }
            // A first page saved by another repository is seen when its change arrives.
            if !writing, !changePending, store.count != current.number {
                throw Violation(description: "fetches the page after \(current.number) while the store holds \(store)")
            }
            cancelNextPageFetch()
            let saving = flights[requirements.tag].map { $0.phase != .fetching } ?? false
            nextPageFetch = NextPageFetch(
                id: id,
                page: current.number + 1,
                generation: generation,
                mark: saving ? nil : firstPageSavesBegun[requirements.tag, default: 0]
            )
        case .cancelNextPage:
            cancelNextPageFetch()
        case .saveNextPage(let id, let requirements, let page, _, let mark):
            try expectCurrent(requirements, generation, "saveNextPage")
            lane.append(
                .nextPage(tag: requirements.tag, page: page.number, id: id, generation: generation, mark: mark)
            )
        }
    }

    func expectCurrent(_ requirements: TestRequirements, _ actionGeneration: Int, _ what: String) throws {
        guard requirements == machine.requirements, actionGeneration == generation else {
            throw Violation(
                description: "\(what) for \(requirements.username) (generation \(actionGeneration)) while the "
                    + "machine works for \(machine.requirements?.username ?? "nil") (generation \(generation))"
            )
        }
    }

    mutating func joinFlight(_ tag: String, wait: UInt64) throws {
        if machine.active?.flight?.calls.isEmpty == true, expectsAutomaticRefreshPaused {
            throw Violation(description: "an automatic refresh after a failed flight, with nothing new since")
        }
        if flights[tag] == nil {
            nextFlightID += 1
            flights[tag] = Flight(id: nextFlightID, members: [])
            note("flight \(nextFlightID) for \(tag) starts")
        }
        flights[tag]?.members.append((wait, generation))
        membership = (tag, flights[tag]?.id ?? 0, wait)
    }

    /// The engine leaves the flight of `wait`: the coordinator keeps it as a member until the end
    /// of a flight whose save is queued (a queued save runs to its end), and otherwise takes it
    /// out, cancels the flight if nobody is left, and the engine tells the machine it left.
    mutating func leaveFlight(_ wait: UInt64) {
        guard let left = membership, left.wait == wait else {
            post(.flightLeft(wait))
            return
        }
        membership = nil
        guard var flight = flights[left.tag], flight.id == left.flight,
            let index = flight.members.firstIndex(where: { $0.wait == left.wait })
        else { return }
        guard flight.phase == .fetching else { return }
        post(.flightLeft(wait))
        flight.members.remove(at: index)
        guard flight.members.isEmpty, flight.phase == .fetching else {
            flights[left.tag] = flight
            return
        }
        flights[left.tag] = nil
        note("flight \(flight.id) abandoned")
    }

    mutating func disposeSubscription() {
        guard let disposed = subscription else { return }
        subscription = nil
        // A value the UI queue was delivering as the subscription was replaced still arrives.
        if let value = disposed.pending.first, random.percent(30) {
            note("a value of the disposed subscription still arrives: \(value)")
            post(.input(cacheEmitted(value, observation: disposed.observation)))
        }
    }

    mutating func cancelNextPageFetch() {
        guard let fetch = nextPageFetch else { return }
        nextPageFetch = nil
        // An answer already on its way when the fetch was disposed still arrives.
        if random.percent(20) {
            let outcome = randomNextPageOutcome(fetch)
            note("next page \(fetch.page) (id \(fetch.id)) answered as it was cancelled: \(outcome)")
            post(.input(.extra(.nextPageFetched(id: fetch.id, outcome))))
        }
    }

    /// A trim not started yet is dropped, or not: either is correct, and the lane may do either.
    /// The session ended: its trim and next-page saves that have not started are dropped (one
    /// that already started, as half of them are taken to have, finishes first in the lane).
    mutating func cancelQueuedSessionWrites() {
        guard random.percent(50) else { return }
        lane.removeAll { write in
            switch write {
            case .trim, .nextPage: true
            case .firstPage: false
            }
        }
    }

    /// The store of `tag` was written: live observations read it again.
    mutating func changed(_ tag: String) {
        guard var live = subscription, live.tag == tag, live.subscribed else { return }
        live.pending.append(snapshot(live))
        subscription = live
    }

    func snapshot(_ subscription: Subscription) -> [Int] {
        Array((stores[subscription.tag] ?? []).prefix(subscription.view))
    }

    // MARK: Invariants

    /// Writes page 1 twice into a store and checks, for the test that the checks can fail.
    mutating func corruptStoreForTesting() throws {
        stores["corrupt"] = [1, 1]
        try checkAlways()
    }

    /// After every step.
    func checkAlways() throws {
        if let issue = outbox?.issues.first { throw Violation(description: issue) }
        for (tag, store) in stores where store != store.indices.map({ $0 + 1 }) {
            throw Violation(description: "the store of \(tag) holds pages \(store), not 1…n each once")
        }
        for (tag, flight) in flights where flight.members.contains(where: { $0.generation == generation }) {
            if nextPageFetch?.generation == generation {
                throw Violation(description: "a next page is fetched while flight \(flight.id) for \(tag) runs")
            }
            for write in lane {
                switch write {
                case .trim(_, _, let written), .nextPage(_, _, _, let written, _):
                    if written == generation {
                        throw Violation(description: "the cache is written (\(write)) while flight \(flight.id) runs")
                    }
                case .firstPage:
                    break
                }
            }
        }
    }

    /// When nothing is pending.
    func checkAtRest() throws {
        if let number = registered.min() {
            throw Violation(description: "call \(number) was never answered")
        }
        if machine.active?.flight != nil {
            throw Violation(description: "at rest, still waits for a flight")
        }
        // Released: observers completed, nobody can subscribe any more.
        guard !machine.isShutDown else { return }
        guard let requirements = machine.requirements else {
            if latest != nil { throw Violation(description: "a state is shown without requirements") }
            return
        }
        guard let latest else { throw Violation(description: "no state shown for \(requirements.username)") }
        if latest.isRefreshing || latest.isFirstFetch || latest.cache?.isLoadingNextPage == true {
            throw Violation(description: "at rest, still shows work: \(latest)")
        }
        let stored = metadata[requirements.tag]
        guard latest.cacheExists == (stored != nil), latest.cacheAge == stored?.lastFetched else {
            throw Violation(description: "shows \(latest) while the metadata says \(String(describing: stored))")
        }
        guard latest.cacheExists else { return }
        // The cache is read for observers only.
        guard machine.hasObservers else {
            if subscription != nil {
                throw Violation(description: "at rest, the cache is read with nobody observing")
            }
            return
        }
        if latest.isLoadingCache {
            throw Violation(description: "at rest, the cache is still loading: \(latest)")
        }
        let store = stores[requirements.tag] ?? []
        let truth = !store.isEmpty && store.count < serverPages
        let shown = latest.cache.map { ($0.cache.compactMap { Int($0) }, $0.areMorePages) }
        if let shown, shown.0 != store || shown.1 != truth {
            throw Violation(
                description: "observers see pages \(shown.0), more: \(shown.1); the store holds \(store), "
                    + "more: \(truth)"
            )
        }
        if shown == nil, !store.isEmpty {
            throw Violation(description: "observers see an empty cache; the store holds \(store)")
        }
        if machine.ext.areMorePagesAvailable != truth || machine.ext.pagingRequirements.number != max(store.count, 1) {
            throw Violation(
                description: "the repository pages from \(machine.ext.pagingRequirements), more: "
                    + "\(machine.ext.areMorePagesAvailable); the store holds \(store)"
            )
        }
    }

    static func describe(_ input: Input) -> String {
        switch input {
        case .setRequirements(let requirements, let stored, let writes):
            "setRequirements(\(requirements?.username ?? "nil"), stored: \(describe(stored)), "
                + "\(writes.pending.count) writes)"
        case .flightFinished(let wait, let result, let stored, let saved):
            "flightFinished(wait \(wait), \(result), stored: \(describe(stored)), "
                + "saved: \(saved.map { "more \($0.areMorePages)" } ?? "nil"))"
        case .metadataChanged(let tag, let stored, let invalidation):
            "metadataChanged(\(tag), \(describe(stored))\(invalidation ? ", invalidation" : ""))"
        case .extra(let input): "\(input)".replacingOccurrences(of: "TellerTestSupport.", with: "")
        default: "\(input)"
        }
    }

    static func describe(_ stored: TypedStoredFetch<Progress>?) -> String {
        guard let stored else { return "nil" }
        return "fetched \(Int(stored.lastFetched.timeIntervalSince1970)), more \(stored.extra?.areMorePages ?? false)"
    }

    static func describe(_ action: Action) -> String {
        switch action {
        case .observeCache(let requirements, let view, let generation):
            "observeCache(\(requirements.username), \(view), generation \(generation))"
        case .joinFlight(let requirements, let wait):
            "joinFlight(\(requirements.username), wait \(wait))"
        case .extra(let action):
            "\(action)".replacingOccurrences(of: "TellerTestSupport.", with: "")
        default:
            "\(action)"
        }
    }

    func note(_ line: @autoclosure () -> String) {
        tracer?.lines.append(line())
    }
}

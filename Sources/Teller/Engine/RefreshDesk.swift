import TellerRx

/// Lets a repository's refresh waiters join a flight the repository already waits for,
/// without a trip through its mailbox and machine.
///
/// When the machine decides that a waiter joins a flight, the repository opens a *party* here
/// with that waiter as its *lead*. Later refresh calls that would join the same flight anyway
/// join the party: they cost one lock instead of the mailbox's generic machinery, which is what
/// keeps a burst of thousands of `refresh()` calls cheap, and they get the lead's result. A
/// party leaves its flight only once its lead and every waiter that joined it have left.
///
/// Joining is refused (the waiter takes the mailbox path) while a requirements change is
/// queued, so a refresh made after `requirements` was set never joins a flight for the old
/// requirements.
final class RefreshDesk: Sendable {
    /// A refresh call's `Single`, as the desk and the mailbox keep it: its observer is stored as
    /// is, in a struct. A closure that sends it `.success` would cost an allocation per call,
    /// and a closure kept directly in an array or dictionary (generic storage) is wrapped in a
    /// conversion thunk, one allocation going in and another coming out.
    struct Respond: Sendable {
        let single: Single<RefreshResult>.SingleObserver

        /// Answers the call.
        func callAsFunction(_ result: RefreshResult) {
            single(.success(result))
        }
    }

    /// Which refresh calls may join a party.
    struct JoinPolicy {
        /// Whether waiters may join at all (a forced refresh always may, if this is true).
        var joinable = true
        /// The cache was missing or too old when the party opened, so `refresh(force: false)`
        /// joins too. Stays true while the flight runs: a cache only gets older meanwhile.
        var unforced: Bool
        /// No cache existed when the party opened, so `refreshIfNoCache()` joins too.
        var ifNoCache: Bool

        /// Nobody joins: every refresh goes through the machine.
        static let closed = JoinPolicy(joinable: false, unforced: false, ifNoCache: false)
    }

    /// A refresh call, as the desk sees it.
    enum Call: Sendable {
        case refresh(force: Bool)
        case ifNoCache
    }

    /// A joined waiter's place. Disposing it leaves the party (as ``leave(_:)`` does), so a
    /// joined `Single` needs no other object to stop waiting.
    final class Membership: Disposable, Sendable {
        fileprivate let party: WaiterID
        fileprivate let index: Int
        private let desk: RefreshDesk

        fileprivate init(party: WaiterID, index: Int, desk: RefreshDesk) {
            self.party = party
            self.index = index
            self.desk = desk
        }

        func dispose() {
            desk.leave(self)
        }
    }

    /// A class, so adding a waiter mutates the party in place instead of copying it out of the
    /// dictionary and back. Only touched under the desk's lock.
    private final class Party {
        let tag: String
        let policy: JoinPolicy
        let token: any Disposable
        var leadWaiting = true
        /// In joining order; a waiter that left is `nil` (no hashing, no sorting at the end).
        var joined: [Respond?] = []
        var joinedWaiting = 0

        var waitingJoined: [Respond] {
            joined.compactMap { $0 }
        }

        init(tag: String, policy: JoinPolicy, token: any Disposable) {
            self.tag = tag
            self.policy = policy
            self.token = token
        }
    }

    private struct State {
        var parties: [WaiterID: Party] = [:]
        /// The party waiters join: the newest one still open.
        var newestParty: WaiterID?
        /// Leads whose `Single` was disposed before the repository joined a flight for them.
        var cancelledLeads: Set<WaiterID> = []
        /// Requirements changes queued but not yet processed; joining waits for them.
        var pendingRequirementChanges = 0
        var isShutDown = false
    }

    private let state = LockedState(State())
    private let log: @Sendable (TellerLogEvent) -> Void

    init(log: @escaping @Sendable (TellerLogEvent) -> Void) {
        self.log = log
    }

    // MARK: Joining (any thread)

    /// Joins the newest party if its policy lets `call` join it.
    ///
    /// - Returns: The waiter's membership, or `nil` when the call must go through the mailbox.
    func join(_ call: Call, respond: @escaping Single<RefreshResult>.SingleObserver) -> Membership? {
        switch call {
        case .refresh(let force): join(force: force, respond: respond)
        case .ifNoCache: join(force: false, ifNoCache: true, respond: respond)
        }
    }

    /// Joins the newest party if its policy lets this call join it.
    ///
    /// - Returns: The waiter's membership, or `nil` when the call must go through the mailbox.
    func join(
        force: Bool,
        ifNoCache: Bool = false,
        respond: @escaping Single<RefreshResult>.SingleObserver
    ) -> Membership? {
        let joined = state.withLock { state -> (Membership, String)? in
            guard state.pendingRequirementChanges == 0, !state.isShutDown,
                let partyID = state.newestParty, let party = state.parties[partyID], party.policy.joinable,
                ifNoCache ? party.policy.ifNoCache : (force || party.policy.unforced)
            else { return nil }
            party.joined.append(Respond(single: respond))
            party.joinedWaiting += 1
            return (Membership(party: partyID, index: party.joined.count - 1, desk: self), party.tag)
        }
        guard let (membership, tag) = joined else { return nil }
        log(.refreshJoined(tag: tag))
        return membership
    }

    /// The waiter stopped waiting (its `Single` was disposed).
    func leave(_ membership: Membership) {
        let (tag, abandoned) = state.withLock { state -> (String?, (any Disposable)?) in
            guard let party = state.parties[membership.party], party.joined[membership.index] != nil else {
                return (nil, nil)
            }
            party.joined[membership.index] = nil
            party.joinedWaiting -= 1
            return (party.tag, closeIfAbandoned(membership.party, in: &state))
        }
        guard let tag else { return }
        log(.refreshSkipped(tag: tag, reason: .cancelled))
        abandoned?.dispose()
    }

    // MARK: Leads (the repository's mailbox)

    /// A requirements change was queued: refuse joining until it is processed.
    func requirementsChangeQueued() {
        state.withLock { $0.pendingRequirementChanges += 1 }
    }

    /// A queued requirements change was processed (its parties are gone, new ones are current).
    func requirementsChangeProcessed() {
        state.withLock { $0.pendingRequirementChanges -= 1 }
    }

    /// The repository is going away: refuse joining from now on.
    func shutDown() {
        state.withLock { $0.isShutDown = true }
    }

    /// Whether `lead` was cancelled before the repository joined a flight for it (and
    /// forgets it).
    func takeCancelledLead(_ lead: WaiterID) -> Bool {
        state.withLock { $0.cancelledLeads.remove(lead) != nil }
    }

    /// Opens a party for `lead`, which just joined a flight through `token`.
    ///
    /// - Returns: `false` if the lead left meanwhile: the repository leaves the flight.
    func openParty(lead: WaiterID, tag: String, policy: JoinPolicy, token: any Disposable) -> Bool {
        state.withLock { state in
            if state.cancelledLeads.remove(lead) != nil { return false }
            state.parties[lead] = Party(tag: tag, policy: policy, token: token)
            state.newestParty = lead
            return true
        }
    }

    /// The lead's `Single` was disposed before it was answered. If the repository already
    /// joined a flight for it, the party leaves that flight unless other waiters still wait.
    func leadCancelled(_ lead: WaiterID) {
        let abandoned = state.withLock { state -> (any Disposable)? in
            guard state.parties[lead] != nil else {
                state.cancelledLeads.insert(lead)
                return nil
            }
            state.parties[lead]?.leadWaiting = false
            return closeIfAbandoned(lead, in: &state)
        }
        abandoned?.dispose()
    }

    /// The lead got its answer: the party closes, and the waiters that joined it are returned
    /// (in the order they joined) to get the same answer.
    func closeParty(of lead: WaiterID) -> [Respond] {
        state.withLock { state -> [Respond] in
            state.cancelledLeads.remove(lead)
            guard let party = removeParty(lead, in: &state) else { return [] }
            return party.waitingJoined
        }
    }

    /// The repository leaves every flight (requirements changed, or it is going away).
    ///
    /// - Returns: The parties' flight tokens (disposing them answers the leads through the
    ///   flights) and the waiters that joined them, to answer `.skipped(.cancelled)`, with their tags.
    func leaveAll() -> (tokens: [any Disposable], joined: [(tag: String, respond: Respond)]) {
        state.withLock { state in
            let parties = state.parties.sorted { $0.key < $1.key }.map(\.value)
            state.parties = [:]
            state.newestParty = nil
            let joined = parties.flatMap { party in
                party.waitingJoined.map { (tag: party.tag, respond: $0) }
            }
            return (parties.map(\.token), joined)
        }
    }

    // MARK: Helpers (under the lock)

    private func closeIfAbandoned(_ partyID: WaiterID, in state: inout State) -> (any Disposable)? {
        guard let party = state.parties[partyID], !party.leadWaiting, party.joinedWaiting == 0 else { return nil }
        return removeParty(partyID, in: &state)?.token
    }

    private func removeParty(_ partyID: WaiterID, in state: inout State) -> Party? {
        guard let party = state.parties.removeValue(forKey: partyID) else { return nil }
        if state.newestParty == partyID {
            state.newestParty = state.parties.keys.max()
        }
        return party
    }
}

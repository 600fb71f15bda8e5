import TellerRx

/// Lets a repository's refresh callers ride on a fetch the repository already waits for,
/// without a trip through its mailbox and state machine.
///
/// When the state machine decides that a caller (its "anchor") joins a flight, the repository
/// takes a seat here for it. Later refresh calls that would join the same flight anyway become
/// riders of that seat: they cost one lock instead of the mailbox's generic machinery, which is
/// what keeps a burst of thousands of `refresh()` calls cheap. Riders get the anchor's result.
/// A seat leaves its flight only once its anchor and all its riders have left.
///
/// Riding is refused (the caller takes the mailbox path) while a requirements change is queued,
/// so a refresh made after `requirements` was set never rides a flight for the old requirements.
final class RefreshDesk: Sendable {
    typealias CallerID = UInt64
    typealias Respond = @Sendable (RefreshResult) -> Void

    /// Which refresh calls may ride a seat.
    struct RidingPolicy {
        /// The cache was missing or too old when the seat was taken, so `refresh(force: false)`
        /// rides too. Stays true while the flight runs: a cache only gets older meanwhile.
        var unforced: Bool
        /// No cache existed when the seat was taken, so `refreshIfNoCache()` rides too.
        var ifNoCache: Bool
    }

    /// A rider's place, for leaving.
    struct Rider: Sendable {
        fileprivate let seat: CallerID
        fileprivate let index: Int
    }

    /// A class, so adding a rider mutates the seat in place instead of copying it out of the
    /// dictionary and back. Only touched under the desk's lock.
    private final class Seat {
        let tag: String
        let policy: RidingPolicy
        let token: any Disposable
        var anchorWaiting = true
        /// In joining order; a rider that left is `nil` (no hashing, no sorting at the end).
        var riders: [Respond?] = []
        var ridersWaiting = 0

        var waitingRiders: [Respond] {
            riders.compactMap { $0 }
        }

        init(tag: String, policy: RidingPolicy, token: any Disposable) {
            self.tag = tag
            self.policy = policy
            self.token = token
        }
    }

    private struct State {
        var seats: [CallerID: Seat] = [:]
        /// The seat riders take: the newest one still open.
        var newestSeat: CallerID?
        /// Anchors whose `Single` was disposed before the repository joined a flight for them.
        var cancelledAnchors: Set<CallerID> = []
        /// Requirements changes queued but not yet processed; riding waits for them.
        var pendingRequirementChanges = 0
        var isShutDown = false
    }

    private let state = LockedState(State())
    private let log: @Sendable (TellerLogEvent) -> Void

    init(log: @escaping @Sendable (TellerLogEvent) -> Void) {
        self.log = log
    }

    // MARK: Riders (any thread)

    /// Rides the newest seat if the policy lets this call join it.
    ///
    /// - Returns: The rider, or `nil` when the call must go through the mailbox.
    func ride(force: Bool, ifNoCache: Bool = false, respond: @escaping Respond) -> Rider? {
        let joined = state.withLock { state -> (Rider, String)? in
            guard state.pendingRequirementChanges == 0, !state.isShutDown,
                let seatID = state.newestSeat, let seat = state.seats[seatID],
                ifNoCache ? seat.policy.ifNoCache : (force || seat.policy.unforced)
            else { return nil }
            seat.riders.append(respond)
            seat.ridersWaiting += 1
            return (Rider(seat: seatID, index: seat.riders.count - 1), seat.tag)
        }
        guard let (rider, tag) = joined else { return nil }
        log(.refreshJoined(tag: tag))
        return rider
    }

    /// The rider stopped waiting (its `Single` was disposed).
    func leave(_ rider: Rider) {
        let (tag, abandoned) = state.withLock { state -> (String?, (any Disposable)?) in
            guard let seat = state.seats[rider.seat], seat.riders[rider.index] != nil else { return (nil, nil) }
            seat.riders[rider.index] = nil
            seat.ridersWaiting -= 1
            return (seat.tag, closeIfAbandoned(rider.seat, in: &state))
        }
        guard let tag else { return }
        log(.refreshSkipped(tag: tag, reason: .cancelled))
        abandoned?.dispose()
    }

    // MARK: Anchors (the repository's mailbox)

    /// A requirements change was queued: refuse riders until it is processed.
    func requirementsChangeQueued() {
        state.withLock { $0.pendingRequirementChanges += 1 }
    }

    /// A queued requirements change was processed (its seats are gone, new ones are current).
    func requirementsChangeProcessed() {
        state.withLock { $0.pendingRequirementChanges -= 1 }
    }

    /// The repository is going away: refuse riders from now on.
    func shutDown() {
        state.withLock { $0.isShutDown = true }
    }

    /// Whether `anchor` was cancelled before the repository joined a flight for it (and
    /// forgets it).
    func takeCancelledAnchor(_ anchor: CallerID) -> Bool {
        state.withLock { $0.cancelledAnchors.remove(anchor) != nil }
    }

    /// Takes a seat for `anchor`, which just joined a flight through `token`.
    ///
    /// - Returns: `false` if the anchor was cancelled meanwhile: the caller leaves the flight.
    func takeSeat(anchor: CallerID, tag: String, policy: RidingPolicy, token: any Disposable) -> Bool {
        state.withLock { state in
            if state.cancelledAnchors.remove(anchor) != nil { return false }
            state.seats[anchor] = Seat(tag: tag, policy: policy, token: token)
            state.newestSeat = anchor
            return true
        }
    }

    /// The anchor's `Single` was disposed before it was answered. If the repository already
    /// joined a flight for it, the seat leaves that flight unless riders still wait.
    func anchorCancelled(_ anchor: CallerID) {
        let abandoned = state.withLock { state -> (any Disposable)? in
            guard state.seats[anchor] != nil else {
                state.cancelledAnchors.insert(anchor)
                return nil
            }
            state.seats[anchor]?.anchorWaiting = false
            return closeIfAbandoned(anchor, in: &state)
        }
        abandoned?.dispose()
    }

    /// The anchor got its answer: the seat closes, and its riders are returned (in the order
    /// they joined) to get the same answer.
    func closeSeat(of anchor: CallerID) -> [Respond] {
        state.withLock { state -> [Respond] in
            state.cancelledAnchors.remove(anchor)
            guard let seat = removeSeat(anchor, in: &state) else { return [] }
            return seat.waitingRiders
        }
    }

    /// The repository leaves every flight (requirements changed, or it is going away).
    ///
    /// - Returns: The seats' flight tokens (disposing them answers the anchors through the
    ///   flights) and the riders to answer `.skipped(.cancelled)`, with their tags.
    func leaveAll() -> (tokens: [any Disposable], riders: [(tag: String, respond: Respond)]) {
        state.withLock { state in
            let seats = state.seats.sorted { $0.key < $1.key }.map(\.value)
            state.seats = [:]
            state.newestSeat = nil
            let riders = seats.flatMap { seat in
                seat.waitingRiders.map { (tag: seat.tag, respond: $0) }
            }
            return (seats.map(\.token), riders)
        }
    }

    // MARK: Helpers (under the lock)

    private func closeIfAbandoned(_ seatID: CallerID, in state: inout State) -> (any Disposable)? {
        guard let seat = state.seats[seatID], !seat.anchorWaiting, seat.ridersWaiting == 0 else { return nil }
        return removeSeat(seatID, in: &state)?.token
    }

    private func removeSeat(_ seatID: CallerID, in state: inout State) -> Seat? {
        guard let seat = state.seats.removeValue(forKey: seatID) else { return nil }
        if state.newestSeat == seatID {
            state.newestSeat = state.seats.keys.max()
        }
        return seat
    }
}

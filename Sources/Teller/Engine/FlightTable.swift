/// Which flight runs for which ``FlightKey`` and which repositories wait for it: the state that
/// repositories of one ``Teller`` share, free of threads and I/O, behind the ``RefreshCoordinator``'s
/// lock.
///
/// A *member* is one repository waiting for a flight (its own waiters are its machine's
/// business). A flight ends when its work says so. When its last member leaves it is cancelled,
/// unless it is already saving: a save is never cut short, so the flight stays, a member that
/// asks to leave stays until it ends (so it learns what was written), and a repository that asks
/// for the key meanwhile joins it and gets the data it saves. Work that belongs to a
/// cancelled flight asks ``mayFetch(_:flight:)`` and ``beginSave(_:flight:)`` before it calls the
/// data source, so it never starts a fetch or writes once a newer flight may run.
///
/// `Member` and `Work` are what the storage keeps with a member and a flight (a callback, a
/// disposable); the table only hands them back.
struct FlightTable<Member, Work> {
    typealias FlightID = UInt64
    typealias MemberID = UInt64

    /// A retry the flight waits for, told to members that join meanwhile.
    typealias RetryNotice = (retry: PendingRetry, delay: Duration)

    private struct Flight {
        let id: FlightID
        let work: Work
        var members: [(id: MemberID, member: Member)] = []
        var retry: RetryNotice?
        var isSaving = false
    }

    /// What became of a member that asked to leave.
    enum Left {
        /// It is out, and hears nothing more; `cancelled` is the flight's work when it was the
        /// last member (the flight is gone, and the caller disposes the work).
        case left(cancelled: Work?)
        /// The flight saves: the member stays until it ends, and hears its end.
        case staysUntilSaved
        /// It was not in the flight (the flight ended): the end was told already.
        case notAMember
    }

    enum Joined {
        /// No flight ran for the key: this one starts, and its work must be started.
        case started(flight: FlightID, member: MemberID, work: Work)
        /// The member joined the running flight; `retry` is the retry it waits for, if any;
        /// `isSaving` when the flight writes its data already (its members were told as it began).
        case joined(flight: FlightID, member: MemberID, retry: RetryNotice?, isSaving: Bool)
    }

    private var flights: [FlightKey: Flight] = [:]
    /// How many flights of each key began saving: a page that builds on what a flight saves (a
    /// paging repository's next page) notes it, and is dropped if another save began since.
    private var savesBegun: [FlightKey: Int] = [:]
    private var nextID: UInt64 = 0

    private mutating func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    /// Adds `member` to the flight for `key`, starting one with `newWork` if none runs.
    mutating func join(_ key: FlightKey, member: Member, newWork: () -> Work) -> Joined {
        let memberID = makeID()
        if let index = flights.index(forKey: key) {
            // Mutated in place: copying a flight out would copy its members on every join.
            flights.values[index].members.append((memberID, member))
            let flight = flights.values[index]
            return .joined(flight: flight.id, member: memberID, retry: flight.retry, isSaving: flight.isSaving)
        }
        var flight = Flight(id: makeID(), work: newWork())
        flight.members.append((memberID, member))
        flights[key] = flight
        return .started(flight: flight.id, member: memberID, work: flight.work)
    }

    /// Takes `member` out of `flight`, unless the flight saves (see ``Left``).
    ///
    /// - Returns: What became of the member, and the member itself when it was taken out (for the
    ///   caller to release outside its lock).
    mutating func leave(_ key: FlightKey, flight id: FlightID, member: MemberID) -> (Left, Member?) {
        guard var flight = flights[key], flight.id == id,
            let index = flight.members.firstIndex(where: { $0.id == member })
        else { return (.notAMember, nil) }
        guard !flight.isSaving else { return (.staysUntilSaved, nil) }
        let left = flight.members.remove(at: index).member
        guard flight.members.isEmpty else {
            flights[key] = flight
            return (.left(cancelled: nil), left)
        }
        flights[key] = nil
        return (.left(cancelled: flight.work), left)
    }

    /// Whether the work of `flight` may call the data source's fetch: the flight was not
    /// cancelled.
    func mayFetch(_ key: FlightKey, flight id: FlightID) -> Bool {
        flights[key]?.id == id
    }

    /// Runs `body` on `flight` in place, with one lookup of its key; `nil` when the flight is gone.
    private mutating func update<Result>(
        _ key: FlightKey,
        flight id: FlightID,
        _ body: (inout Flight) -> Result
    ) -> Result? {
        guard let index = flights.index(forKey: key), flights.values[index].id == id else { return nil }
        return body(&flights.values[index])
    }

    /// The work of `flight` fetched its data and wants to save it.
    ///
    /// - Returns: The members to tell, or `nil` when the flight was cancelled: the data is
    ///   dropped unsaved. From now on the flight is not cancelled when its members leave.
    mutating func beginSave(_ key: FlightKey, flight id: FlightID) -> [Member]? {
        let members = update(key, flight: id) { flight in
            flight.isSaving = true
            return flight.members.map(\.member)
        }
        if members != nil { savesBegun[key, default: 0] += 1 }
        return members
    }

    /// For a page that builds on what flights of `key` save: `nil` while one saves (the page must
    /// wait for it), otherwise how many saves of the key began so far.
    func savesBegun(_ key: FlightKey) -> Int? {
        flights[key]?.isSaving == true ? nil : savesBegun[key, default: 0]
    }

    /// The flight waits to try again (`retry`), or its retry starts (`nil`).
    ///
    /// - Returns: The members to tell; none when the flight is gone.
    mutating func retryChanged(_ key: FlightKey, flight id: FlightID, to retry: RetryNotice?) -> [Member] {
        update(key, flight: id) { flight in
            flight.retry = retry
            return flight.members.map(\.member)
        } ?? []
    }

    /// The flight's work ended: the flight is gone.
    ///
    /// - Returns: Its work and its members at the end, in the order they joined, or `nil` when
    ///   the flight had been cancelled.
    mutating func finish(_ key: FlightKey, flight id: FlightID) -> (work: Work, members: [Member])? {
        guard let index = flights.index(forKey: key), flights.values[index].id == id else { return nil }
        let flight = flights.remove(at: index).value
        return (flight.work, flight.members.map(\.member))
    }
}

@_spi(TellerInternals) import TellerRx

/// What a running fetch tells the repositories waiting for it.
enum FlightEvent: Sendable {
    /// The fetch succeeded and the data is being saved: stop observing the cache meanwhile.
    case saving
    /// The fetch failed and is tried again after a delay, as the retry policy says.
    case retryScheduled(PendingRetry, delay: Duration)
    /// The delay of a retry ran out: attempt number `attempt` (2 for the first retry) starts.
    case retryStarted(attempt: Int)
    /// The fetch is over for this waiter. `saved` is what a successful save brought beside the
    /// data (a paging first page's progress, sealed), for every repository that waited.
    case finished(RefreshResult, saved: Parcel? = nil)
}

/// Which fetches are one flight: the same tag of the same data-source type.
///
/// Keying by type as well as tag keeps two unrelated data sources that happen to use the same
/// tag string apart: each fetches and saves its own data. Instances of one type that use the same
/// tag are taken to show the same data from the same store (one tag, one store): the first
/// repository's flight saves for all of them.
///
/// The key's hash is computed once, when it is made: a flight's key is looked up in the
/// coordinator's tables about ten times per refresh, and hashing the tag each time was most of
/// what those lookups cost.
struct FlightKey: Hashable, Sendable {
    let dataSource: ObjectIdentifier
    let tag: String
    private let hash: Int

    init<DataSource>(_ dataSource: DataSource.Type, tag: String) {
        self.dataSource = ObjectIdentifier(dataSource)
        self.tag = tag
        var hasher = Hasher()
        hasher.combine(self.dataSource)
        hasher.combine(tag)
        hash = hasher.finalize()
    }

    static func == (lhs: FlightKey, rhs: FlightKey) -> Bool {
        lhs.hash == rhs.hash && lhs.dataSource == rhs.dataSource && lhs.tag == rhs.tag
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

/// Runs at most one fetch ("flight") per ``FlightKey``, and the data source's writes one at a
/// time. A waiter is a repository: it joins the flight in progress and hears its events, and a
/// flight is cancelled only when its last waiter leaves before it saves.
///
/// The storage around pure tables, ``FlightTable`` and two ``Lanes`` (writes and fetches): it
/// holds them behind one lock, and calls waiters, logs and runs jobs outside it.
final class RefreshCoordinator: Sendable {
    /// A waiter of a flight. In a struct: a closure kept directly in generic storage is wrapped
    /// in a conversion thunk going in and coming out.
    struct Waiter: Sendable {
        let hear: @Sendable (FlightEvent) -> Void
    }

    /// A flight's work and when it started (for the log's durations).
    struct Work: Sendable {
        let subscription = SingleAssignmentDisposable()
        let started: ContinuousClock.Instant
    }

    /// One job in a lane: a write of the data source, or the start of a fetch.
    struct Job: Sendable {
        let run: @Sendable () -> Void
    }

    private struct State {
        var flights = FlightTable<Waiter, Work>()
        var writes = Lanes<ObjectIdentifier, Job>()
        var fetches = Lanes<FlightKey, Job>()
    }

    private let state = LockedState(State())
    private let log: @Sendable (TellerLogEvent) -> Void

    init(log: @escaping @Sendable (TellerLogEvent) -> Void) {
        self.log = log
    }

    /// Joins the flight for `key`, starting it with `makeWork` if none is in progress. The work
    /// gets a ``FlightContext`` to ask, before it fetches or saves, whether the flight still runs,
    /// and where to deliver its events; it returns what disposes it when the flight is cancelled.
    ///
    /// - Returns: The waiter's membership, to leave the flight with.
    func join(
        key: FlightKey,
        waiter: @escaping @Sendable (FlightEvent) -> Void,
        makeWork: (FlightContext, _ deliver: @escaping @Sendable (FlightEvent) -> Void) -> any Disposable
    ) -> Membership {
        let joined = state.withLock { state in
            state.flights.join(key, member: Waiter(hear: waiter), newWork: { Work(started: .now) })
        }
        let tag = key.tag
        switch joined {
        case .started(let flight, let member, let work):
            log(.refreshStarted(tag: tag))
            let context = FlightContext(coordinator: self, key: key, flight: flight)
            work.subscription.setDisposable(
                makeWork(context) { [self] event in hear(event, key: key, flight: flight) }
            )
            return Membership(coordinator: self, key: key, flight: flight, member: member)
        case .joined(let flight, let member, let retry, let isSaving):
            log(.refreshJoined(tag: tag))
            // What the members present were told, the new one hears at once.
            if let retry {
                waiter(.retryScheduled(retry.retry, delay: retry.delay))
            }
            if isSaving {
                waiter(.saving)
            }
            return Membership(coordinator: self, key: key, flight: flight, member: member)
        }
    }

    /// A waiter's place in a flight.
    final class Membership: Disposable, Sendable {
        private let coordinator: RefreshCoordinator
        private let key: FlightKey
        /// The flight's number, as its ``FlightContext/flight`` says it.
        let flight: UInt64
        private let member: UInt64

        fileprivate init(coordinator: RefreshCoordinator, key: FlightKey, flight: UInt64, member: UInt64) {
            self.coordinator = coordinator
            self.key = key
            self.flight = flight
            self.member = member
        }

        /// Leaves the flight; it is cancelled if nobody is left and it does not save yet.
        ///
        /// - Returns: `true` when the waiter is out and hears nothing more; `false` when it
        ///   hears the flight's end still (the flight saves, or it ended already).
        func leave() -> Bool {
            coordinator.leave(key, flight: flight, member: member)
        }

        func dispose() {
            _ = leave()
        }
    }

    private func leave(_ key: FlightKey, flight: UInt64, member: UInt64) -> Bool {
        // The waiter itself is released outside the lock too.
        let (left, waiter) = state.withLock { $0.flights.leave(key, flight: flight, member: member) }
        withExtendedLifetime(waiter) {}
        guard case .left(let cancelled) = left else { return false }
        if let cancelled {
            cancelled.subscription.dispose()
            log(.refreshCancelled(tag: key.tag, duration: ContinuousClock.now - cancelled.started))
        }
        return true
    }

    /// What the flight's work sends; `.saving` comes through ``FlightContext/save(_:)``.
    private func hear(_ event: FlightEvent, key: FlightKey, flight: UInt64) {
        let tag = key.tag
        switch event {
        case .saving:
            break
        case .retryScheduled(let retry, let delay):
            let waiters = state.withLock { $0.flights.retryChanged(key, flight: flight, to: (retry, delay)) }
            log(.retryScheduled(tag: tag, failedAttempts: retry.failedAttempts, delay: delay, error: retry.lastError))
            for waiter in waiters { waiter.hear(event) }
        case .retryStarted(let attempt):
            let waiters = state.withLock { $0.flights.retryChanged(key, flight: flight, to: nil) }
            log(.retryStarted(tag: tag, attempt: attempt))
            for waiter in waiters { waiter.hear(event) }
        case .finished(let result, _):
            guard let (work, waiters) = state.withLock({ $0.flights.finish(key, flight: flight) }) else { return }
            let duration = ContinuousClock.now - work.started
            switch result {
            case .successful: log(.refreshSucceeded(tag: tag, duration: duration))
            case .failedError(let error): log(.refreshFailed(tag: tag, error: error, duration: duration))
            case .skipped: log(.refreshCancelled(tag: tag, duration: duration))
            }
            for waiter in waiters { waiter.hear(event) }
        }
    }

    // MARK: For the work (FlightContext)

    fileprivate func mayFetch(_ key: FlightKey, flight: UInt64) -> Bool {
        state.withLock { $0.flights.mayFetch(key, flight: flight) }
    }

    fileprivate func beginSave(_ key: FlightKey, flight: UInt64) -> Bool {
        guard let waiters = state.withLock({ $0.flights.beginSave(key, flight: flight) }) else { return false }
        for waiter in waiters { waiter.hear(.saving) }
        return true
    }

    // MARK: Pages that build on a flight's save

    /// For a page that builds on what flights of `key` save (a next page): `nil` while one saves
    /// (the page must wait), otherwise a mark to pass to ``isUnchanged(_:since:)``.
    func savedDataMark(_ key: FlightKey) -> Int? {
        state.withLock { $0.flights.savesBegun(key) }
    }

    /// Whether no flight of `key` began saving since `mark` (from ``savedDataMark(_:)``) and none
    /// saves now: what the page built on is still there.
    func isUnchanged(_ key: FlightKey, since mark: Int) -> Bool {
        state.withLock { $0.flights.savesBegun(key) == mark }
    }

    // MARK: Writes

    /// Runs `write` in the write lane of `key`'s data-source type (see ``Lanes``): now, on
    /// this thread, if no other write of the type runs; otherwise after the writes asked for
    /// before it, on the thread that ends the one before.
    func write(_ key: FlightKey, _ write: @escaping @Sendable () -> Void) {
        let lane = key.dataSource
        var next = state.withLock { $0.writes.enqueue(lane, Job(run: write)) }
        while let current = next {
            current.run()
            next = state.withLock { $0.writes.finished(lane) }
        }
    }

    // MARK: Fetches

    /// Starts `start` in `key`'s fetch lane: now if no fetch of the key runs, otherwise once the
    /// fetch before it ended. Whatever `start` begins calls ``fetchEnded(_:)`` exactly once.
    fileprivate func enterFetchLane(_ key: FlightKey, _ start: @escaping @Sendable () -> Void) {
        state.withLock { $0.fetches.enqueue(key, Job(run: start)) }?.run()
    }

    /// The fetch running in `key`'s lane answered or was disposed: the next one starts.
    func fetchEnded(_ key: FlightKey) {
        state.withLock { $0.fetches.finished(key) }?.run()
    }

    /// `fetch`, in `key`'s fetch lane: it starts (on `scheduler`) once no other fetch of the key
    /// runs, a flight's or a next page's, and only if `mayStart()` says so then; it counts from
    /// the call until it answers or is disposed, so at most one fetch of a tag runs at a time.
    /// `events` hears what the fetch sends, on whatever thread it sends it. Disposing the
    /// returned attempt disposes the fetch at once, on the disposing thread.
    func fetchInLane<Element: Sendable>(
        _ key: FlightKey,
        on scheduler: any ImmediateSchedulerType,
        mayStart: @escaping @Sendable () -> Bool = { true },
        _ fetch: @escaping @Sendable () -> Observable<Element>,
        events: @escaping @Sendable (Event<Element>) -> Void
    ) -> any Disposable {
        let attempt = FetchAttempt(coordinator: self, key: key)
        enterFetchLane(key) {
            guard attempt.granted() else { return }
            _ = scheduler.schedule(()) { _ in
                ThreadMark.fetchStart.run { attempt.start(if: mayStart(), fetch, events: events) }
                return Disposables.create()
            }
        }
        return attempt
    }
}

/// What a flight's work may ask of the ``RefreshCoordinator`` that runs it.
struct FlightContext: Sendable {
    fileprivate let coordinator: RefreshCoordinator
    let key: FlightKey
    /// The flight's number, unique among the flights of its ``Teller``.
    let flight: UInt64

    /// Whether the work may call the data source's fetch: the flight was not cancelled. Work
    /// scheduled before a cancellation reached it must not start a fetch after it.
    func mayFetch() -> Bool {
        coordinator.mayFetch(key, flight: flight)
    }

    /// The work fetched its data: unless the flight was cancelled (`false`: the data is dropped
    /// unsaved), its waiters are told `.saving`, and from now on the flight is not cancelled any
    /// more: a save is never cut short.
    func beginSave() -> Bool {
        coordinator.beginSave(key, flight: flight)
    }

    /// The flight's fetch, in the key's fetch lane (see ``RefreshCoordinator/fetchInLane``): not
    /// started at all once the flight was cancelled.
    func fetch<Element: Sendable>(
        on scheduler: any ImmediateSchedulerType,
        _ fetch: @escaping @Sendable () -> Observable<Element>,
        events: @escaping @Sendable (Event<Element>) -> Void
    ) -> any Disposable {
        coordinator.fetchInLane(key, on: scheduler, mayStart: { mayFetch() }, fetch, events: events)
    }

    /// Saves fetched data in the key's write lane, unless the flight was cancelled (see
    /// ``beginSave()``): runs `save` once the writes before it ended, and hands the `.finished`
    /// event it returns to `then`, on the thread that ran it. A cancelled flight's data is
    /// dropped unsaved and `then` is never called: the flight's work was disposed, nobody waits.
    func save(_ save: @escaping @Sendable () -> FlightEvent, then: @escaping @Sendable (FlightEvent) -> Void) {
        guard beginSave() else { return }
        coordinator.write(key) { then(save()) }
    }
}

import TellerRx

/// What a running fetch tells the repositories waiting for it.
enum FlightEvent: Sendable {
    /// The fetch succeeded and the data is being saved: stop observing the cache meanwhile.
    case saving
    /// The fetch failed and is tried again after a delay, as the retry policy says.
    case retryScheduled(PendingRetry, delay: Duration)
    /// The delay of a retry ran out: attempt number `attempt` (2 for the first retry) starts.
    case retryStarted(attempt: Int)
    /// The fetch is over for this waiter.
    case finished(RefreshResult)
}

/// Which fetches are one flight: the same tag of the same data-source type.
///
/// Keying by type as well as tag keeps two unrelated data sources that happen to use the same
/// tag string apart: each fetches and saves its own data. Instances of one type that use the same
/// tag are taken to show the same data from the same store (one tag, one store): the first
/// repository's flight saves for all of them.
struct FlightKey: Hashable, Sendable {
    let dataSource: ObjectIdentifier
    let tag: String

    init<DataSource>(_ dataSource: DataSource.Type, tag: String) {
        self.dataSource = ObjectIdentifier(dataSource)
        self.tag = tag
    }
}

/// Runs at most one fetch ("flight") per ``FlightKey``. Waiters join the flight in progress,
/// each gets its own result, and a flight is cancelled only when its last waiter leaves.
final class RefreshCoordinator: Sendable {
    typealias Waiter = @Sendable (FlightEvent) -> Void

    private struct Flight {
        let id: UInt64
        let started: ContinuousClock.Instant
        let work = SingleAssignmentDisposable()
        var waiters: [UInt64: Waiter] = [:]
        /// The retry the flight waits for now, told to waiters that join meanwhile.
        var pendingRetry: (retry: PendingRetry, delay: Duration)?
    }

    private struct State {
        var flights: [FlightKey: Flight] = [:]
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    private let state = LockedState(State())
    private let log: @Sendable (TellerLogEvent) -> Void

    init(log: @escaping @Sendable (TellerLogEvent) -> Void) {
        self.log = log
    }

    /// Joins the flight for `key`, starting it with `makeWork` if none is in progress.
    ///
    /// - Returns: A disposable that takes this waiter out: it gets `.finished(.skipped(.cancelled))`
    ///   (unless the flight already finished for it), and the flight is cancelled if nobody is left.
    func join(
        key: FlightKey,
        waiter: @escaping Waiter,
        makeWork: () -> Observable<FlightEvent>
    ) -> any Disposable {
        let (flightID, waiterID, work, pendingRetry) = state.withLock {
            state -> (UInt64, UInt64, SingleAssignmentDisposable?, (retry: PendingRetry, delay: Duration)?) in
            let waiterID = state.makeID()
            // Mutated in place: copying a flight out would copy its waiters on every join.
            if let flightID = state.flights[key]?.id {
                state.flights[key]?.waiters[waiterID] = waiter
                return (flightID, waiterID, nil, state.flights[key]?.pendingRetry)
            }
            var flight = Flight(id: state.makeID(), started: .now)
            flight.waiters[waiterID] = waiter
            state.flights[key] = flight
            return (flight.id, waiterID, flight.work, nil)
        }
        let tag = key.tag
        if let pendingRetry {
            waiter(.retryScheduled(pendingRetry.retry, delay: pendingRetry.delay))
        }
        if let work {
            log(.refreshStarted(tag: tag))
            work.setDisposable(
                makeWork().subscribe(onNext: { [self] event in
                    broadcast(event, key: key, flightID: flightID)
                })
            )
        } else {
            log(.refreshJoined(tag: tag))
        }
        return Disposables.create { [self] in
            leave(key: key, flightID: flightID, waiterID: waiterID)
        }
    }

    private func broadcast(_ event: FlightEvent, key: FlightKey, flightID: UInt64) {
        let tag = key.tag
        switch event {
        case .saving, .retryScheduled, .retryStarted:
            let waiters = state.withLock { state -> [Waiter] in
                guard state.flights[key]?.id == flightID else { return [] }
                switch event {
                case .retryScheduled(let retry, let delay): state.flights[key]?.pendingRetry = (retry, delay)
                default: state.flights[key]?.pendingRetry = nil
                }
                return state.flights[key].map { Array($0.waiters.values) } ?? []
            }
            switch event {
            case .retryScheduled(let retry, let delay):
                log(
                    .retryScheduled(
                        tag: tag,
                        failedAttempts: retry.failedAttempts,
                        delay: delay,
                        error: retry.lastError
                    )
                )
            case .retryStarted(let attempt):
                log(.retryStarted(tag: tag, attempt: attempt))
            default:
                break
            }
            for waiter in waiters { waiter(event) }
        case .finished(let result):
            let finished = state.withLock { state -> Flight? in
                guard let flight = state.flights[key], flight.id == flightID else { return nil }
                state.flights[key] = nil
                return flight
            }
            guard let finished else { return }
            let duration = ContinuousClock.now - finished.started
            switch result {
            case .successful: log(.refreshSucceeded(tag: tag, duration: duration))
            case .failedError(let error): log(.refreshFailed(tag: tag, error: error, duration: duration))
            case .skipped: log(.refreshCancelled(tag: tag, duration: duration))
            }
            for waiter in finished.waiters.sorted(by: { $0.key < $1.key }) {
                waiter.value(.finished(result))
            }
        }
    }

    private func leave(key: FlightKey, flightID: UInt64, waiterID: UInt64) {
        let tag = key.tag
        let (waiter, abandoned) = state.withLock { state -> (Waiter?, Flight?) in
            guard state.flights[key]?.id == flightID,
                let waiter = state.flights[key]?.waiters.removeValue(forKey: waiterID)
            else { return (nil, nil) }
            if state.flights[key]?.waiters.isEmpty == true {
                return (waiter, state.flights.removeValue(forKey: key))
            }
            return (waiter, nil)
        }
        if let abandoned {
            abandoned.work.dispose()
            log(.refreshCancelled(tag: tag, duration: ContinuousClock.now - abandoned.started))
        }
        if waiter != nil {
            log(.refreshSkipped(tag: tag, reason: .cancelled))
        }
        waiter?(.finished(.skipped(reason: .cancelled)))
    }
}

@_spi(TellerInternals) import TellerRx

/// One fetch of a flight in its key's fetch lane (``FlightContext/fetch(on:_:)``): from the
/// moment the lane lets it start until the fetch answers or is disposed, whichever comes first,
/// and then it lets the next fetch of the key start, once.
///
/// Disposal may come at any moment, from any thread: while it waits in the lane, once the lane
/// let it start but before the data source was called, while the data source's fetch is being
/// subscribed, or while it runs. Each is a phase; the lane is released by whoever ends it.
final class FetchAttempt: Disposable, Sendable {
    private enum Phase {
        /// Waiting in the lane.
        case queued
        /// The lane let it start; the start is scheduled.
        case granted
        /// The data source's fetch is being subscribed; `disposed` when disposal came meanwhile.
        case subscribing(disposed: Bool)
        case running(any Disposable)
        case ended
    }

    private let phase = LockedState(Phase.queued)
    private let coordinator: RefreshCoordinator
    private let key: FlightKey

    init(coordinator: RefreshCoordinator, key: FlightKey) {
        self.coordinator = coordinator
        self.key = key
    }

    /// The lane let it start. `false` when it was disposed while waiting: the lane is released.
    func granted() -> Bool {
        let wasDisposed = phase.withLock { phase -> Bool in
            guard case .queued = phase else { return true }
            phase = .granted
            return false
        }
        if wasDisposed { coordinator.fetchEnded(key) }
        return !wasDisposed
    }

    /// Calls the data source's fetch, unless the attempt was disposed or `mayFetch` is false (the
    /// flight was cancelled), and forwards what it sends to `events`.
    func start<Element: Sendable>(
        if mayFetch: Bool,
        _ fetch: () -> Observable<Element>,
        events: @escaping @Sendable (Event<Element>) -> Void
    ) {
        let starts = phase.withLock { phase -> Bool in
            guard case .granted = phase else { return false }
            phase = .subscribing(disposed: false)
            return true
        }
        guard starts else { return }
        guard mayFetch else {
            end()
            return
        }
        let subscription = fetch().subscribe(
            onNext: { events(.next($0)) },
            onError: { [self] error in
                events(.error(error))
                end()
            },
            onCompleted: { [self] in
                events(.completed)
                end()
            }
        )
        let disposeNow = phase.withLock { phase -> Bool in
            switch phase {
            case .subscribing(let disposed):
                phase = disposed ? .ended : .running(subscription)
                return disposed
            case .queued, .granted, .running, .ended:
                // It answered while being subscribed, and ended.
                return false
            }
        }
        if disposeNow {
            subscription.dispose()
            coordinator.fetchEnded(key)
        }
    }

    /// It answered: the next fetch of the key may start.
    private func end() {
        let ends = phase.withLock { phase -> Bool in
            if case .ended = phase { return false }
            phase = .ended
            return true
        }
        if ends { coordinator.fetchEnded(key) }
    }

    func dispose() {
        let (running, releases) = phase.withLock { phase -> ((any Disposable)?, Bool) in
            switch phase {
            case .queued:
                // `granted()` releases the lane when it comes.
                phase = .ended
                return (nil, false)
            case .granted:
                phase = .ended
                return (nil, true)
            case .subscribing:
                phase = .subscribing(disposed: true)
                return (nil, false)
            case .running(let subscription):
                phase = .ended
                return (subscription, true)
            case .ended:
                return (nil, false)
            }
        }
        running?.dispose()
        if releases { coordinator.fetchEnded(key) }
    }
}

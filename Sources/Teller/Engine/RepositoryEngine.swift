import Foundation
@_spi(TellerInternals) import TellerRx

/// The engine behind every repository: feeds inputs to its ``RepositoryMachine`` one at a time and
/// performs the actions the machine returns, with the help of the repository kind's
/// ``EngineEffects``.
///
/// Inputs come from any thread (app calls, the cache observation on the UI scheduler, fetches
/// on the background scheduler). They are queued in a mailbox and processed in order by the
/// thread that finds the mailbox idle, so the machine never runs twice at once, states are
/// emitted in the order they were decided, and an observer that calls back into the repository
/// while a state is delivered does not deadlock (its input is queued). Decisions are made under
/// the lock; user code (observers, waiters, the data source) always runs outside it.
final class RepositoryEngine<Effects: EngineEffects>: RefreshCallOwner, @unchecked Sendable {
    // @unchecked: the queue is only touched under `mailbox`'s lock; the machine (which keeps
    // the observers) under `drained`'s.
    typealias Requirements = Effects.Requirements
    typealias State = CacheState<Effects.Shown>
    /// A state, or `nil` for no requirements (signed out).
    typealias SessionState = State?

    let effects: Effects
    let teller: Teller
    private let mailbox = LockedState(Mailbox())
    private let drained: LockedState<EngineDrained>
    private let noticeSubscription = SingleAssignmentDisposable()
    /// The cache observation and the refresh timer. Replacing one disposes the previous one on
    /// the replacing thread, outside every lock. (Not key paths into the mailbox: a key path
    /// into generic storage is instantiated at run time, by demangling, each time it is used.)
    private let cacheSubscription = SerialDisposable()
    private let refreshTimer = SerialDisposable()
    /// The flight joined last, with the machine's id of the wait it joined for.
    private let flightMembership = LockedState<(flight: UInt64, membership: RefreshCoordinator.Membership)?>(nil)
    private let broadcast: StateBroadcast<SessionState>

    init(effects: Effects) {
        self.effects = effects
        let teller = effects.teller
        self.teller = teller
        drained = LockedState(EngineDrained(machine: effects.makeMachine()))
        broadcast = StateBroadcast(
            scheduler: teller.uiScheduler,
            present: { state in state.map(effects.applyPendingWrites(to:)) },
            firstUse: { teller.uiSchedulerNeeded() }
        )
        noticeSubscription.setDisposable(
            teller.notices.subscribe(onNext: { [weak self] notice in
                switch notice {
                case .metadataChanged(let change): self?.send(.metadataChanged(change))
                case .refresh(let trigger): self?.send(.triggered(trigger))
                case .writesChanged(let tag, let sent): self?.send(.writesChanged(tag: tag, sent: sent))
                }
            })
        )
    }

    /// The requirements last set: those of a change the machine has not processed yet, so
    /// setting then reading on one thread agrees, or else the machine's.
    var requirements: Requirements? {
        if let requested = mailbox.withLock({ $0.requested }) {
            return requested.open(as: Requirements?.self)
        }
        return drained.withLock { $0.machine.requirements }.map(typed)
    }

    /// Reads something from the machine under the lock (for the façades' read-only properties).
    func read<Value>(_ body: (RepositoryMachine) -> Value) -> Value {
        drained.withLock { body($0.machine) }
    }

    // MARK: Entry points

    /// An observable of states: the latest at once, then every change, until shut down; all
    /// delivered on the Teller's UI scheduler. Nothing while no requirements are set: the
    /// Teller-iOS rule ported code relies on.
    func states() -> Observable<State> {
        sessionStates().compactMap { $0 }
    }

    /// ``states()``, and `nil` whenever the requirements are set to `nil` (a sign-out), also
    /// first for an observer that subscribes while none are set after a sign-out.
    func sessionStates() -> Observable<SessionState> {
        Observable.create { [self] observer in
            let id = mailbox.withLock { $0.makeObserverID() }
            // The refresh check first, so a refresh it starts is already in the first state
            // this observer gets.
            send(.observed)
            send(.addObserver(StateObserver(id: id, observer: observer)))
            return Disposables.create { [weak self] in self?.send(.removeObserver(id)) }
        }
    }

    /// A refresh, decided by the machine when the returned `Single` is subscribed. See
    /// ``TellerRepository/refresh(force:)``.
    func refresh(force: Bool) -> Single<RefreshResult> {
        waiterSingle(.refresh(force: force))
    }

    /// See ``TellerRepository/refreshIfNoCache()``.
    func refreshIfNoCache() -> Single<RefreshResult> {
        waiterSingle(.ifNoCache)
    }

    /// Sets new requirements. Inputs are processed in order, so a refresh made after this call
    /// is about the new requirements.
    func setRequirements(_ requirements: Requirements?) {
        let parcel = Sealed(requirements)
        let (mustDrain, replaced) = mailbox.withLock { $0.post(requirements: parcel) }
        withExtendedLifetime(replaced) {}
        if mustDrain {
            drain()
        }
    }

    func shutDown() {
        noticeSubscription.dispose()
        effects.shutDown()
        send(.shutDown)
    }

    // MARK: Mailbox

    /// Sends an input of the repository kind's own.
    func send(extra input: Effects.ExtraInput) {
        send(.extra(Sealed(input)))
    }

    private func send(_ mail: Mail) {
        if mailbox.withLock({ $0.post(mail) }) {
            drain()
        }
    }

    private func send(_ call: RefreshCall) {
        if mailbox.withLock({ $0.post(call) }) {
            drain()
        }
    }

    private func drain() {
        while let (mail, calls) = mailbox.withLock({ $0.take() }) {
            process(mail, calls: calls)
        }
    }

    private func process(_ mail: Mail, calls: [RefreshCall]) {
        switch mail {
        case .refreshCalls:
            handle(.refresh(calls))
        case .refreshCallLeft(let call):
            handle(.refreshCallLeft(call))
        case .observed:
            handle(.observed)
        case .triggered(let trigger):
            handle(.triggered(trigger))
        case .flightSaving(let flight):
            handle(.flightSaving(flight))
        case .flightRetry(let flight, let pending):
            handle(.flightRetry(flight, pending: pending))
        case .shutDown:
            trackingTheShownTag { handle(.shutDown) }
        case .setRequirements(let parcel):
            let requirements = parcel.open(as: Requirements?.self)
            let stored = requirements.flatMap { effects.stored(forTag: $0.tag) }
            let writes = requirements.map { teller.writes(tag: $0.tag) } ?? TagWrites()
            // A state belongs to its requirements: an observer that subscribes after they
            // changed (to nil: after a logout) must never see the previous ones' data.
            // The old state (the previous user's data) is released here, outside the lock.
            let previous = drained.withLock { drained in
                defer { drained.latest = nil }
                return drained.latest
            }
            withExtendedLifetime(previous) {}
            trackingTheShownTag { handle(.setRequirements(requirements, stored: stored, writes: writes)) }
            let processed = mailbox.withLock { $0.requirementsProcessed() }
            withExtendedLifetime(processed) {}
        case .flightLeft(let flight):
            let tag = drained.withLock { $0.machine.requirements?.tag }
            handle(.flightLeft(flight, stored: tag.flatMap { effects.stored(forTag: $0) }))
        case .flightFinished(let flight, let result, let saved):
            let tag = drained.withLock { $0.machine.requirements?.tag }
            let stored = tag.flatMap { effects.stored(forTag: $0) }
            handle(.flightFinished(flight, result: result, stored: stored, saved: saved))
        case .metadataChanged(let change):
            guard !isOwnFlightsSave(change) else { return }
            guard let tag = drained.withLock({ $0.machine.requirements?.tag }), change.concerns(tag) else { return }
            handle(
                .metadataChanged(tag: tag, stored: effects.stored(forTag: tag), invalidation: change.isInvalidation)
            )
        case .removeObserver(let id):
            handle(.observerRemoved(id))
        case .writesChanged(let changed, let sent):
            guard let tag = drained.withLock({ $0.machine.requirements?.tag }), changed == nil || changed == tag else {
                return
            }
            handle(.writesChanged(teller.writes(tag: tag), sent: sent))
        case .cacheEmitted(let observation, let cache, let isEmpty):
            handle(.cacheEmitted(observation: observation, cache: cache, isEmpty: isEmpty))
        case .cacheFailed(let observation, let error):
            handle(.cacheFailed(observation: observation, error: error))
        case .cacheSilent(let observation):
            handle(.cacheSilent(observation: observation))
        case .extra(let input):
            handle(.extra(input))
        case .addObserver(let observer):
            handle(.observerAdded(observer))
        }
    }

    /// Runs `body` (which may change the requirements the machine works for) and tells the
    /// Teller which tag this repository shows now: a cache store keeps shown tags.
    private func trackingTheShownTag(_ body: () -> Void) {
        let before = drained.withLock { $0.machine.requirements?.tag }
        body()
        let after = drained.withLock { $0.machine.requirements?.tag }
        teller.shownTagChanged(from: before, to: after)
    }

    private func handle(_ input: EngineInput) {
        let now = teller.now
        // What the machine held of the app's values before (requirements, cache, a kind's own
        // state) is released with `held`, after the lock: the handling may drop the last
        // reference, and a value's deinit is app code. Only for inputs that can drop one: the
        // copy costs generic value copies, and refresh calls are the hot path.
        let (actions, held) = drained.withLock { drained in
            let held = input.mayReleaseAppValues ? drained.machine.appValues : nil
            return (drained.machine.handle(input, now: now), held)
        }
        withExtendedLifetime(held) {}
        for action in actions {
            perform(action)
        }
    }

    // MARK: Actions

    private func perform(_ action: EngineAction) {
        switch action {
        case .emit(let decided):
            remember(.decided(decided))
        case .emitSignedOut:
            remember(.signedOut)
        case .observeCache(let requirements, let view, let observation):
            cacheSubscription.disposable = observeCache(
                typed(requirements),
                view.open(as: Effects.View.self),
                observation: observation
            )
        case .stopObservingCache:
            cacheSubscription.disposable = Disposables.create()
        case .startRefreshTimer(let interval):
            let timer = Observable<Int>.interval(interval, scheduler: teller.backgroundScheduler)
                .subscribe(onNext: { [weak self] _ in self?.send(.triggered(.interval)) })
            refreshTimer.disposable = timer
        case .stopRefreshTimer:
            refreshTimer.disposable = Disposables.create()
        case .joinFlight(let requirements, let flight):
            let membership = joinFlight(typed(requirements), flight: flight)
            flightMembership.withLock { $0 = (flight, membership) }
        case .leaveFlight(let flight):
            let joined = flightMembership.withLock { joined in
                defer { if joined?.flight == flight { joined = nil } }
                return joined?.flight == flight ? joined?.membership : nil
            }
            if joined?.leave() ?? true {
                send(.flightLeft(flight))
            }
        case .respond(let calls, let result):
            for call in calls { call.answer(result) }
        case .greet(let observer):
            // Only the drain remembers states, so none comes between the machine adding the
            // observer and this.
            if let latest = drained.withLock({ $0.latest }) {
                broadcast.send(sessionState(latest), to: [observer])
            }
        case .complete(let observers):
            broadcast.complete(observers)
        case .log(let event):
            teller.log(event)
        case .quiet:
            break
        case .logRepeated(let event, let count):
            teller.log(event, count: count)
        case .extra(let action):
            effects.perform(action.open(as: Effects.ExtraAction.self), engine: self)
        }
    }

    /// The requirements the machine was given, as this repository's type.
    private func typed(_ requirements: any RepositoryRequirements) -> Requirements {
        typedRequirements(requirements, as: Requirements.self)
    }

    /// Makes `state` the latest and sends it to the observers; the state it replaces is released
    /// after the lock. The state observers are shown is only made when there are some: a
    /// repository nobody observes (a background refresh) never opens its decided states.
    private func remember(_ state: EngineDrained.Latest) {
        let (observers, previous) = drained.withLock { drained in
            defer { drained.latest = state }
            return (drained.machine.observers, drained.latest)
        }
        withExtendedLifetime(previous) {}
        if !observers.isEmpty {
            broadcast.send(sessionState(state), to: observers)
        }
    }

    /// What observers are shown of `latest`: a state of the repository's type, or `nil` for
    /// signed out.
    private func sessionState(_ latest: EngineDrained.Latest) -> SessionState {
        switch latest {
        case .decided(let decided): State(decided)
        case .signedOut: nil
        }
    }

    /// Whether `change` is the save of the flight this repository is a member of. The flight's
    /// end tells the machine, with the metadata read then, so the notice would only make it read
    /// the same metadata once more on the path to the answer. Asked when the notice is processed,
    /// in the mailbox's order: the membership then reflects every input before it (a join or a
    /// leave the machine decided is performed before the next mail is taken), so a repository
    /// that left the flight, or whose requirements changed meanwhile, still hears the save.
    private func isOwnFlightsSave(_ change: MetadataChange) -> Bool {
        guard case .saved(_, let flight) = change else { return false }
        return flightMembership.withLock { $0?.membership.flight == flight }
    }

    // MARK: Refresh calls

    /// A refresh call's `Single`: the call goes to the machine, which answers it.
    private func waiterSingle(_ kind: RefreshCall.Kind) -> Single<RefreshResult> {
        Single.create { [self] single in
            let call = RefreshCall(kind, single: single, owner: self)
            send(call)
            return call
        }
    }

    func refreshCallLeft(_ call: RefreshCall) {
        send(.refreshCallLeft(call))
    }

    private func joinFlight(_ requirements: Requirements, flight: UInt64) -> RefreshCoordinator.Membership {
        teller.coordinator.join(
            key: effects.flightKey(for: requirements),
            waiter: { [self] event in
                switch event {
                case .saving: send(.flightSaving(flight))
                case .retryScheduled(let retry, _): send(.flightRetry(flight, pending: retry))
                case .retryStarted: send(.flightRetry(flight, pending: nil))
                case .finished(let result, let saved): send(.flightFinished(flight, result: result, saved: saved))
                }
            },
            makeWork: { effects.flightWork(for: requirements, context: $0, deliver: $1) }
        )
    }

    // MARK: Cache

    private func observeCache(_ requirements: Requirements, _ view: Effects.View, observation: Int) -> any Disposable {
        teller.uiSchedulerNeeded()
        return effects.observeCache(requirements, view)
            .subscribe(
                onNext: { [self] reading in
                    switch reading {
                    case .value(let cache, let isEmpty):
                        send(.cacheEmitted(observation: observation, cache: Sealed(cache), isEmpty: isEmpty))
                    case .nothingOnSubscribe:
                        send(.cacheSilent(observation: observation))
                    }
                },
                onError: { [self] error in
                    send(.cacheFailed(observation: observation, error: error))
                }
            )
    }
}

/// What a ``RepositoryEngine``'s drain works on: apart from the mailbox, so refresh calls are
/// queued (one lock, one append) while the drain has the machine decide a batch. Not generic
/// (not nested in the engine): the engine's code runs unspecialized for the app's types, and
/// each use of a generic type there looks its metadata up at run time.
struct EngineDrained {
    /// The last state the machine decided, as the engine remembers it for new observers.
    enum Latest {
        case decided(DecidedState)
        /// The requirements were set to `nil` (a sign-out).
        case signedOut
    }

    var machine: RepositoryMachine
    /// What a new observer gets first: nothing yet (`nil`), or the last state decided.
    var latest: Latest?
}

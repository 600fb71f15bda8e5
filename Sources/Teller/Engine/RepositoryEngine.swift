import Foundation
import TellerRx

/// The engine behind every repository: feeds inputs to its ``EngineMachine`` one at a time and
/// performs the actions the machine returns, with the help of the repository kind's
/// ``EngineEffects``.
///
/// Inputs come from any thread (app calls, the cache observation on the UI scheduler, fetches
/// on the background scheduler). They are queued in a mailbox and processed in order by the
/// thread that finds the mailbox idle, so the machine never runs twice at once, states are
/// emitted in the order they were decided, and an observer that calls back into the repository
/// while a state is delivered does not deadlock (its input is queued). Decisions are made under
/// the lock; user code (observers, waiters, the data source) always runs outside it.
final class RepositoryEngine<Effects: EngineEffects>: @unchecked Sendable {
    // @unchecked: the machine and the observers are only touched under `mailbox`'s lock.
    typealias Machine = Effects.Machine
    typealias Requirements = Machine.Requirements
    typealias State = CacheState<Machine.Shown>
    typealias StateObserver = AnyObserver<State>

    /// What arrives in the mailbox. Inputs that need metadata read it when they are processed,
    /// never when they are queued, so the machine never sees metadata older than the input.
    enum Mail {
        case input(EngineInput<Machine>)
        case setRequirements(Requirements?)
        case flightFinished(generation: Int, waiter: WaiterID, result: RefreshResult, saved: (any Sendable)?)
        case metadataChanged(MetadataChange)
        case addObserver(UInt64, StateObserver)
        case removeObserver(UInt64)
    }

    private struct Mailbox {
        var machine: Machine
        var mail = InputQueue<Mail>()
        /// The requirements last set, before the mailbox has processed them: what the
        /// `requirements` getter returns, so setting then reading on one thread agrees.
        var requested: Requirements?
        var waiters: [WaiterID: RefreshDesk.Respond] = [:]
        var observers: [(id: UInt64, observer: StateObserver)] = []
        var nextObserverID: UInt64 = 0
        var latest: State?
    }

    let effects: Effects
    let teller: Teller
    /// Waiters that join a flight this repository already waits for, without the mailbox.
    let desk: RefreshDesk
    private let mailbox: LockedState<Mailbox>
    private let noticeSubscription = SingleAssignmentDisposable()
    /// The cache observation and the refresh timer. Replacing one disposes the previous one on
    /// the replacing thread, outside every lock. (Not key paths into the mailbox: a key path
    /// into generic storage is instantiated at run time, by demangling, each time it is used.)
    private let cacheSubscription = SerialDisposable()
    private let refreshTimer = SerialDisposable()
    private let broadcast: StateBroadcast<State>

    init(effects: Effects) {
        self.effects = effects
        let teller = effects.teller
        self.teller = teller
        mailbox = LockedState(Mailbox(machine: effects.makeMachine()))
        desk = RefreshDesk(log: { [teller] event in teller.log(event) })
        broadcast = StateBroadcast(scheduler: teller.uiScheduler)
        noticeSubscription.setDisposable(
            teller.notices.subscribe(onNext: { [weak self] notice in
                switch notice {
                case .metadataChanged(let change): self?.send(.metadataChanged(change))
                case .refresh(let trigger): self?.send(.input(.triggered(trigger)))
                }
            })
        )
    }

    var requirements: Requirements? {
        mailbox.withLock { $0.requested }
    }

    /// Reads something from the machine under the lock (for the façades' read-only properties).
    func read<Value>(_ body: (Machine) -> Value) -> Value {
        mailbox.withLock { body($0.machine) }
    }

    // MARK: Entry points

    /// An observable of states: the latest at once, then every change, until shut down; all
    /// delivered on the Teller's UI scheduler.
    func states() -> Observable<State> {
        Observable.create { [self] observer in
            let id = mailbox.withLock { mailbox -> UInt64 in
                mailbox.nextObserverID += 1
                return mailbox.nextObserverID
            }
            // The refresh check first, so a refresh it starts is already in the first state
            // this observer gets.
            send(.input(.observed))
            send(.addObserver(id, observer))
            return Disposables.create { [weak self] in self?.send(.removeObserver(id)) }
        }
    }

    /// A refresh: joins a flight this repository already waits for when the desk allows it,
    /// otherwise goes through the machine. See ``TellerRepository/refresh(force:)``.
    func refresh(force: Bool) -> Single<RefreshResult> {
        waiterSingle(.refresh(force: force))
    }

    /// See ``TellerRepository/refreshIfNoCache()``.
    func refreshIfNoCache() -> Single<RefreshResult> {
        waiterSingle(.ifNoCache)
    }

    /// Sets new requirements. Joining old flights through the desk stops at once, before the
    /// change is processed, so a refresh made after this call is about the new requirements.
    func setRequirements(_ requirements: Requirements?) {
        desk.requirementsChangeQueued()
        let shouldDrain = mailbox.withLock { mailbox -> Bool in
            mailbox.requested = requirements
            return mailbox.mail.enqueue(.setRequirements(requirements))
        }
        if shouldDrain {
            drain()
        }
    }

    func shutDown() {
        noticeSubscription.dispose()
        desk.shutDown()
        effects.shutDown()
        send(.input(.shutDown))
    }

    // MARK: Mailbox

    func send(_ input: EngineInput<Machine>) {
        send(.input(input))
    }

    private func send(_ mail: Mail) {
        if mailbox.withLock({ $0.mail.enqueue(mail) }) {
            drain()
        }
    }

    private func drain() {
        while let mail = mailbox.withLock({ $0.mail.next() }) {
            process(mail)
        }
    }

    private func process(_ mail: Mail) {
        switch mail {
        case .input(let input):
            handle(input)
        case .setRequirements(let requirements):
            let stored = requirements.flatMap { effects.stored(forTag: $0.tag) }
            // A state belongs to its requirements: an observer that subscribes after they
            // changed (to nil: after a logout) must never see the previous ones' data.
            mailbox.withLock { $0.latest = nil }
            handle(.setRequirements(requirements, stored: stored))
            desk.requirementsChangeProcessed()
        case .flightFinished(let generation, let waiter, let result, let saved):
            let tag = mailbox.withLock { $0.machine.requirements?.tag }
            let stored = tag.flatMap { effects.stored(forTag: $0) }
            handle(
                .flightFinished(
                    generation: generation,
                    waiter: waiter,
                    result: result,
                    stored: stored,
                    saved: saved as? Machine.StoredExtra
                )
            )
        case .metadataChanged(let change):
            guard let tag = mailbox.withLock({ $0.machine.requirements?.tag }), change.concerns(tag) else { return }
            handle(
                .metadataChanged(tag: tag, stored: effects.stored(forTag: tag), invalidation: change.isInvalidation)
            )
        case .addObserver(let id, let observer):
            let (isShutDown, latest, isFirst) = mailbox.withLock { mailbox -> (Bool, State?, Bool) in
                if mailbox.machine.isShutDown { return (true, nil, false) }
                mailbox.observers.append((id, observer))
                return (false, mailbox.latest, mailbox.observers.count == 1)
            }
            if isShutDown {
                broadcast.complete([(id, observer)])
            } else if let latest {
                broadcast.send(latest, to: [(id, observer)])
            }
            if isFirst {
                handle(.observersChanged(hasObservers: true))
            }
        case .removeObserver(let id):
            let wasLast = mailbox.withLock { mailbox -> Bool in
                let count = mailbox.observers.count
                mailbox.observers.removeAll { $0.id == id }
                return count > 0 && mailbox.observers.isEmpty
            }
            if wasLast {
                handle(.observersChanged(hasObservers: false))
            }
        }
    }

    private func handle(_ input: EngineInput<Machine>) {
        let now = teller.now
        for action in mailbox.withLock({ $0.machine.handle(input, now: now) }) {
            perform(action)
        }
    }

    // MARK: Actions

    private func perform(_ action: EngineAction<Machine>) {
        switch action {
        case .emit(let state):
            let observers = mailbox.withLock { mailbox in
                mailbox.latest = state
                return mailbox.observers
            }
            broadcast.send(state, to: observers)
        case .observeCache(let requirements, let view, let generation):
            cacheSubscription.disposable = observeCache(requirements, view, generation: generation)
        case .stopObservingCache:
            cacheSubscription.disposable = Disposables.create()
        case .startRefreshTimer(let interval):
            let timer = Observable<Int>.interval(interval, scheduler: teller.backgroundScheduler)
                .subscribe(onNext: { [weak self] _ in self?.send(.input(.triggered(.interval))) })
            refreshTimer.disposable = timer
        case .stopRefreshTimer:
            refreshTimer.disposable = Disposables.create()
        case .joinFlight(let requirements, let generation, let waiter):
            joinFlight(requirements, generation: generation, waiter: waiter)
        case .leaveFlights:
            // Disposing a party's token answers its lead through the flight; the waiters that
            // joined it through the desk are answered here.
            let (tokens, joined) = desk.leaveAll()
            for token in tokens { token.dispose() }
            for waiter in joined {
                teller.log(.refreshSkipped(tag: waiter.tag, reason: .cancelled))
                waiter.respond(.skipped(reason: .cancelled))
            }
        case .respond(let waiter, let result):
            // Taken out under the lock, so a waiter that left meanwhile is never answered.
            let respond = mailbox.withLock { $0.waiters.removeValue(forKey: waiter) }
            let joined = desk.closeParty(of: waiter)
            respond?(result)
            for respond in joined { respond(result) }
        case .complete:
            let observers = mailbox.withLock { mailbox in
                defer { mailbox.observers = [] }
                return mailbox.observers
            }
            broadcast.complete(observers)
        case .log(let event):
            teller.log(event)
        case .extra(let action):
            effects.perform(action, engine: self)
        }
    }

    // MARK: Waiters

    /// A refresh call's `Single`. A call that joins a party at the desk touches nothing
    /// generic: a burst of thousands of calls pays no generic metadata lookups per call.
    private func waiterSingle(_ call: RefreshDesk.Call) -> Single<RefreshResult> {
        Single.create { [self] single in
            if let membership = desk.join(call, respond: single) {
                return membership
            }
            return sendThroughMachine(call, respond: RefreshDesk.Respond(single: single))
        }
    }

    private func sendThroughMachine(_ call: RefreshDesk.Call, respond: RefreshDesk.Respond) -> any Disposable {
        let waiter = register(respond)
        switch call {
        case .refresh(let force): send(.input(.refresh(waiter, force: force)))
        case .ifNoCache: send(.input(.refreshIfNoCache(waiter)))
        }
        return Disposables.create { [self] in cancel(waiter) }
    }

    /// Registers a waiter; `respond` gets exactly one result unless it leaves first.
    private func register(_ respond: RefreshDesk.Respond) -> WaiterID {
        mailbox.withLock { mailbox in
            let waiter = mailbox.machine.makeWaiterID()
            mailbox.waiters[waiter] = respond
            return waiter
        }
    }

    /// The waiter stopped waiting (its `Single` was disposed).
    private func cancel(_ waiter: WaiterID) {
        let wasWaiting = mailbox.withLock { $0.waiters.removeValue(forKey: waiter) != nil }
        if wasWaiting {
            desk.leadCancelled(waiter)
        }
    }

    private func joinFlight(_ requirements: Requirements, generation: Int, waiter: WaiterID) {
        if desk.takeCancelledLead(waiter) {
            send(
                .flightFinished(
                    generation: generation,
                    waiter: waiter,
                    result: .skipped(reason: .cancelled),
                    saved: nil
                )
            )
            return
        }
        let now = teller.now
        let policy = mailbox.withLock { $0.machine.joinPolicy(now: now) }
        let key = effects.flightKey(for: requirements)
        let token = teller.coordinator.join(
            key: key,
            waiter: { [self] event in
                switch event {
                case .saving: send(.input(.flightSaving(generation: generation)))
                case .retryScheduled(let retry, _): send(.input(.flightRetry(generation: generation, pending: retry)))
                case .retryStarted: send(.input(.flightRetry(generation: generation, pending: nil)))
                case .finished(let result, let saved):
                    send(.flightFinished(generation: generation, waiter: waiter, result: result, saved: saved))
                }
            },
            makeWork: { effects.flightWork(for: requirements, context: $0) }
        )
        if !desk.openParty(lead: waiter, tag: key.tag, policy: policy, token: token) {
            token.dispose()
        }
    }

    // MARK: Cache

    private func observeCache(_ requirements: Requirements, _ view: Machine.View, generation: Int) -> any Disposable {
        effects.observeCache(requirements, view)
            .subscribe(
                onNext: { [self] reading in
                    switch reading {
                    case .value(let cache, let isEmpty):
                        send(.input(.cacheEmitted(generation: generation, cache: cache, isEmpty: isEmpty)))
                    case .nothingOnSubscribe:
                        send(.input(.cacheSilent(generation: generation)))
                    }
                },
                onError: { [self] error in
                    send(.input(.cacheFailed(generation: generation, error: error)))
                }
            )
    }
}

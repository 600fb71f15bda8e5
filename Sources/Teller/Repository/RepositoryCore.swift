import Foundation
import TellerRx

/// The engine behind a ``TellerRepository``: feeds inputs to the state machine one at a time
/// and performs the actions it returns.
///
/// Inputs come from any thread (app calls, the cache observation on the UI scheduler, fetches
/// on the background scheduler). They are queued in a mailbox and processed in order by the
/// thread that finds the mailbox idle, so the state machine never runs twice at once, states
/// are emitted in the order they were decided, and an observer that calls back into the
/// repository while a state is delivered does not deadlock (its input is queued).
final class RepositoryCore<DataSource: RepositoryDataSource>: @unchecked Sendable {
    // @unchecked: `dataSource` is only called on the Teller's schedulers, as RepositoryDataSource
    // documents; all mutable state is in `mailbox`.
    typealias Requirements = DataSource.Requirements
    typealias Cache = DataSource.Cache
    typealias Machine = RepositoryStateMachine<Requirements, Cache>
    typealias CallerID = Machine.CallerID
    typealias StateObserver = AnyObserver<CacheState<Cache>>

    enum Input {
        case setRequirements(Requirements?)
        case observed
        case refresh(CallerID, force: Bool)
        case refreshIfNoCache(CallerID)
        case flightSaving(generation: Int)
        case flightFinished(generation: Int, caller: CallerID, result: RefreshResult)
        case cacheEmitted(generation: Int, cache: Cache, isEmpty: Bool)
        case cacheFailed(generation: Int, error: any Error)
        case metadataChanged(tag: String)
        case addObserver(UInt64, StateObserver)
        case removeObserver(UInt64)
        case shutDown
    }

    private struct Mailbox {
        var machine: Machine
        var inputs = InputQueue<Input>()
        /// The requirements last set, before the mailbox has processed them: what the
        /// `requirements` getter returns, so setting then reading on one thread agrees.
        var requested: Requirements?
        var callers: [CallerID: @Sendable (RefreshResult) -> Void] = [:]
        var cacheSubscription: (any Disposable)?
        var observers: [(id: UInt64, observer: StateObserver)] = []
        var nextObserverID: UInt64 = 0
        var latest: CacheState<Cache>?
    }

    let dataSource: DataSource
    let teller: Teller
    /// Refresh callers that ride a flight this repository already waits for.
    let desk: RefreshDesk
    private let mailbox: LockedState<Mailbox>
    private let metadataSubscription = SingleAssignmentDisposable()

    init(dataSource: DataSource, teller: Teller) {
        self.dataSource = dataSource
        self.teller = teller
        let configuration = Machine.Configuration(
            automaticallyRefresh: dataSource.automaticallyRefresh,
            maxAgeOfCache: dataSource.maxAgeOfCache
        )
        mailbox = LockedState(Mailbox(machine: Machine(configuration: configuration)))
        desk = RefreshDesk(log: { [teller] event in teller.log(event) })
        metadataSubscription.setDisposable(
            teller.metadataChanges.subscribe(onNext: { [weak self] tag in
                self?.send(.metadataChanged(tag: tag))
            })
        )
    }

    var requirements: Requirements? {
        mailbox.withLock { $0.requested }
    }

    // MARK: Entry points

    /// An observable of states: the latest at once, then every change, until shut down.
    func states() -> Observable<CacheState<Cache>> {
        Observable.create { [self] observer in
            let id = mailbox.withLock { mailbox -> UInt64 in
                mailbox.nextObserverID += 1
                return mailbox.nextObserverID
            }
            // The refresh check first, so a refresh it starts is already in the first state
            // this observer gets.
            send(.observed)
            send(.addObserver(id, observer))
            return Disposables.create { [weak self] in self?.send(.removeObserver(id)) }
        }
    }

    /// Registers a refresh caller; `respond` gets exactly one result unless cancelled first.
    func register(_ respond: @escaping @Sendable (RefreshResult) -> Void) -> CallerID {
        mailbox.withLock { mailbox in
            let caller = mailbox.machine.makeCallerID()
            mailbox.callers[caller] = respond
            return caller
        }
    }

    /// The caller stopped waiting (its `Single` was disposed).
    func cancel(_ caller: CallerID) {
        let wasWaiting = mailbox.withLock { $0.callers.removeValue(forKey: caller) != nil }
        if wasWaiting {
            desk.anchorCancelled(caller)
        }
    }

    /// Sets new requirements. Riding old flights stops at once, before the change is
    /// processed, so a refresh made after this call is about the new requirements.
    func setRequirements(_ requirements: Requirements?) {
        desk.requirementsChangeQueued()
        enqueueRequirements(requirements)
    }

    func shutDown() {
        metadataSubscription.dispose()
        desk.shutDown()
        send(.shutDown)
    }

    // MARK: Mailbox

    func send(_ input: Input) {
        if mailbox.withLock({ $0.inputs.enqueue(input) }) {
            drain()
        }
    }

    /// Queues new requirements and records them, under one lock, as what `requirements` reads.
    private func enqueueRequirements(_ requirements: Requirements?) {
        let shouldDrain = mailbox.withLock { mailbox -> Bool in
            mailbox.requested = requirements
            return mailbox.inputs.enqueue(.setRequirements(requirements))
        }
        if shouldDrain {
            drain()
        }
    }

    private func drain() {
        while let input = mailbox.withLock({ $0.inputs.next() }) {
            process(input)
        }
    }

    private func process(_ input: Input) {
        let now = teller.now
        switch input {
        case .setRequirements(let requirements):
            let lastFetched = requirements.flatMap { teller.lastFetched(tag: $0.tag) }
            perform(mailbox.withLock { $0.machine.setRequirements(requirements, lastFetched: lastFetched, now: now) })
            desk.requirementsChangeProcessed()
        case .observed:
            perform(mailbox.withLock { $0.machine.observed(now: now) })
        case .refresh(let caller, let force):
            perform(mailbox.withLock { $0.machine.refresh(caller: caller, force: force, now: now) })
        case .refreshIfNoCache(let caller):
            perform(mailbox.withLock { $0.machine.refreshIfNoCache(caller: caller, now: now) })
        case .flightSaving(let generation):
            perform(mailbox.withLock { $0.machine.flightSaving(generation: generation) })
        case .flightFinished(let generation, let caller, let result):
            let lastFetched = mailbox.withLock { $0.machine.requirements?.tag }.flatMap { teller.lastFetched(tag: $0) }
            perform(
                mailbox.withLock {
                    $0.machine.flightFinished(
                        generation: generation,
                        caller: caller,
                        result: result,
                        lastFetched: lastFetched
                    )
                }
            )
        case .cacheEmitted(let generation, let cache, let isEmpty):
            perform(
                mailbox.withLock {
                    $0.machine.cacheEmitted(generation: generation, cache: cache, isEmpty: isEmpty, now: now)
                }
            )
        case .cacheFailed(let generation, let error):
            perform(mailbox.withLock { $0.machine.cacheFailed(generation: generation, error: error) })
        case .metadataChanged(let tag):
            let lastFetched = teller.lastFetched(tag: tag)
            perform(mailbox.withLock { $0.machine.metadataChanged(tag: tag, lastFetched: lastFetched) })
        case .addObserver(let id, let observer):
            let latest = mailbox.withLock { mailbox -> CacheState<Cache>? in
                if mailbox.machine.isShutDown { return nil }
                mailbox.observers.append((id, observer))
                return mailbox.latest
            }
            if mailbox.withLock({ $0.machine.isShutDown }) {
                observer.onCompleted()
            } else if let latest {
                observer.onNext(latest)
            }
        case .removeObserver(let id):
            mailbox.withLock { $0.observers.removeAll { $0.id == id } }
        case .shutDown:
            perform(mailbox.withLock { $0.machine.shutDown() })
        }
    }

    // MARK: Actions

    private func perform(_ actions: [Machine.Action]) {
        for action in actions {
            perform(action)
        }
    }

    private func perform(_ action: Machine.Action) {
        switch action {
        case .emit(let state):
            let observers = mailbox.withLock { mailbox in
                mailbox.latest = state
                return mailbox.observers
            }
            for entry in observers { entry.observer.onNext(state) }
        case .observeCache(let requirements, let generation):
            let subscription = observeCache(requirements, generation: generation)
            let previous = mailbox.withLock { mailbox in
                defer { mailbox.cacheSubscription = subscription }
                return mailbox.cacheSubscription
            }
            previous?.dispose()
        case .stopObservingCache:
            mailbox.withLock { mailbox in
                defer { mailbox.cacheSubscription = nil }
                return mailbox.cacheSubscription
            }?
            .dispose()
        case .joinFlight(let requirements, let generation, let caller):
            joinFlight(requirements, generation: generation, caller: caller)
        case .leaveFlights:
            // Disposing a seat's token answers its anchor through the flight; riders are
            // answered here.
            let (tokens, riders) = desk.leaveAll()
            for token in tokens { token.dispose() }
            for rider in riders {
                teller.log(.refreshSkipped(tag: rider.tag, reason: .cancelled))
                rider.respond(.skipped(reason: .cancelled))
            }
        case .respond(let caller, let result):
            let respond = mailbox.withLock { $0.callers.removeValue(forKey: caller) }
            let riders = desk.closeSeat(of: caller)
            respond?(result)
            for rider in riders { rider(result) }
        case .complete:
            let observers = mailbox.withLock { mailbox in
                defer { mailbox.observers = [] }
                return mailbox.observers
            }
            for entry in observers { entry.observer.onCompleted() }
        case .log(let event):
            teller.log(event)
        }
    }

    private func joinFlight(_ requirements: Requirements, generation: Int, caller: CallerID) {
        if desk.takeCancelledAnchor(caller) {
            send(.flightFinished(generation: generation, caller: caller, result: .skipped(reason: .cancelled)))
            return
        }
        let now = teller.now
        let policy = mailbox.withLock { mailbox in
            RefreshDesk.RidingPolicy(
                unforced: mailbox.machine.needsRefresh(force: false, now: now),
                ifNoCache: !mailbox.machine.hasCache
            )
        }
        let token = teller.coordinator.join(
            tag: requirements.tag,
            waiter: { [self] event in
                switch event {
                case .saving: send(.flightSaving(generation: generation))
                case .finished(let result):
                    send(.flightFinished(generation: generation, caller: caller, result: result))
                }
            },
            makeWork: { FlightWork(dataSource: dataSource, requirements: requirements, teller: teller).run() }
        )
        if !desk.takeSeat(anchor: caller, tag: requirements.tag, policy: policy, token: token) {
            token.dispose()
        }
    }

    private func observeCache(_ requirements: Requirements, generation: Int) -> any Disposable {
        let dataSource = UncheckedSendable(dataSource)
        let requirementsBox = UncheckedSendable(requirements)
        return Observable<Cache>.deferred {
            dataSource.value.observeCache(requirements: requirementsBox.value)
        }
        .subscribe(on: teller.uiScheduler)
        .observe(on: teller.uiScheduler)
        .subscribe(
            onNext: { [self] cache in
                let isEmpty = dataSource.value.isCacheEmpty(cache, requirements: requirementsBox.value)
                send(.cacheEmitted(generation: generation, cache: cache, isEmpty: isEmpty))
            },
            onError: { [self] error in
                send(.cacheFailed(generation: generation, error: error))
            }
        )
    }
}

/// Carries a non-Sendable value into work Teller schedules itself, where the documented
/// threading of the data source makes the access safe.
struct UncheckedSendable<Value>: @unchecked Sendable {
    // @unchecked: see each use.
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

import Foundation
import TellerRx
import TellerTestSupport

@testable import Teller

/// Plays ``RepositoryEngine``'s role for a few ``RepositoryStateMachine``s on one thread, so a
/// randomized test can drive them through long sequences and check invariants after every step.
///
/// It performs the machines' actions the way the engine does, with the real
/// ``RefreshCoordinator`` (one per model, as one `Teller` has) and real ``RefreshCall``s, and
/// models the rest: each repository's mailbox (inputs wait in it until a step
/// processes one, as they do while another thread drains), the waiters' `Single`s, the cache
/// subscription, the data source's store (which emits its current value on subscription and after
/// every change) and the metadata store. Flights are work the test finishes, fails or lets time
/// out, one step at a time; the save of a flight abandoned while saving still runs to its end,
/// as `FlightWork`'s does.
///
/// Every departure from an invariant is appended to ``issues``.
final class RepositoryEngineModel: @unchecked Sendable {
    // @unchecked: used on one thread; the coordinator and the calls call back synchronously.
    typealias Machine = RepositoryStateMachine<TestRequirements, [String]>
    typealias State = CacheState<[String]>

    enum Mail {
        case input(Machine.Input)
        /// Consecutive ones are handed to the machine as one input, as the engine's drain does.
        case refresh(RefreshCall)
        case flightLeft(UInt64)
        case setRequirements(TestRequirements?)
        case flightFinished(UInt64, result: RefreshResult)
        case metadataChanged(MetadataChange)
        /// The outbox's notice: the writes to `tag` changed; read when processed, as the engine does.
        case writesChanged(tag: String, sent: OutboxRecord?)
    }

    /// The cache subscription of one repository.
    struct Subscription {
        /// The machine's number for it: its events carry it.
        let observation: Int
        let tag: String
        /// The store has a value to send (it sends its current value on subscription and after
        /// every change).
        var hasPendingValue = true
    }

    /// One repository: its engine's state, and what the invariants need to know about it.
    final class Engine: RefreshCallOwner, @unchecked Sendable {
        // @unchecked: used on the model's thread only.
        let id: Int
        var machine: Machine
        var mail: [Mail] = []
        /// What `requirements` returns: the requirements last set.
        var requested: TestRequirements?
        /// The flight joined last, as the engine's membership slot holds it.
        var membership: (flight: UInt64, membership: RefreshCoordinator.Membership)?
        var subscription: Subscription?
        var latest: State?
        /// How many fetches of the requested requirements' tag were saved when they were set.
        var savesBeforeRequested = 0
        /// The repository was released (`engine.shutDown()` ran).
        var isReleased = false

        /// Requirements generations as the model counts them: one per requirements change.
        var epoch = 0
        /// The epoch each flight wait joined its flight in.
        var flightEpochs: [UInt64: Int] = [:]
        /// The calls the machine answered.
        var answered: Set<ObjectIdentifier> = []
        /// Whether the last flight of the current requirements that ended since the last state
        /// succeeded (`true`) or failed (`false`); `nil` if none did.
        var lastResultSinceEmit: Bool?
        /// A flight of the current requirements failed and nothing new happened since.
        var mayNotRefreshAutomatically = false
        /// `observe()` was called: the engine told the machine it has observers.
        var isObserved = false
        /// What its states must say of the tag's writes (with an outbox).
        var writes = ShownWritesExpectation()
        /// The writes its last state of the current requirements showed.
        var shownWriteIDs: Set<UUID> = []
        /// The app was killed with it: nothing happens to it any more.
        var isKilled = false

        init(id: Int, machine: Machine) {
            self.id = id
            self.machine = machine
        }

        func refreshCallLeft(_ call: RefreshCall) {
            mail.append(.input(.refreshCallLeft(call)))
        }
    }

    /// A `refresh()` or `refreshIfNoCache()` caller.
    struct Caller {
        let engine: Engine
        /// The tag of the requirements set when the call was made: the ones it refreshes.
        let tag: String
        /// Whether the tag had a cache when the call was made, for `refreshIfNoCache()`.
        let hadCache: Bool
        /// How many fetches of the tag had been saved when its requirements were set.
        let savesBefore: Int
        var call: RefreshCall?
        var answers = 0
        var hasLeft = false

        var isWaiting: Bool { answers == 0 && !hasLeft }
    }

    /// A flight's work, as `FlightWork` runs it.
    struct Flight {
        let tag: String
        let deliver: @Sendable (FlightEvent) -> Void
        let context: FlightContext
        /// The server's data when the fetch started: what it saves.
        let server: [String]
        /// How many marks were made when the fetch started (Teller's invalidation stamp).
        let stamp: Int
        var isSaving = false
    }

    enum FlightOutcome: CaseIterable {
        case fetchFails, fetchTimesOut, fetchFailsAndIsRetried, fetchSucceeds, saveSucceeds, saveSucceedsEmpty,
            saveFails
    }

    let configuration: Machine.Configuration
    private(set) var coordinator = RefreshCoordinator(log: { _ in })
    private(set) var now: Date
    private(set) var live: [Engine] = []
    /// Every repository, released ones included, in the order they were made.
    private(set) var engines: [Engine] = []
    private(set) var callers: [Int: Caller] = [:]
    /// The callers that wait for an answer, oldest first.
    private(set) var waitingCallers: [Int] = []
    private(set) var flights: [Int: Flight] = [:]
    private(set) var store: [String: [String]] = [:]
    private(set) var metadata: [String: Date] = [:]
    /// How many fetches of each tag were saved, here or elsewhere.
    private(set) var saves: [String: Int] = [:]
    /// Invalidated tags, with the last ID made before the mark: a flight made later clears it
    /// when it saves (Teller's `Invalidations`).
    private var invalidated: [String: Int] = [:]
    /// How many marks were made, of any tag, and for each tag the most made when a fetch of it
    /// that saved started: a fetch that started with fewer saves nothing over the newer data
    /// (Teller's `Invalidations`).
    private var marks = 0
    private var savedStamps: [String: Int] = [:]
    private(set) var issues: [String] = []
    /// The app's outbox, when the test sends writes: its notices reach the repositories.
    var outbox: OutboxQueueModel?
    /// Every step and every action (when `verbose`), for the failure report.
    private(set) var trace: [String] = []
    var verbose = false
    private var nextID = 0
    private var version = 0

    init(repositories: Int, configuration: Machine.Configuration, now: Date) {
        self.configuration = configuration
        self.now = now
        live = (0..<repositories).map { _ in makeEngine() }
    }

    private func makeID() -> Int {
        nextID += 1
        return nextID
    }

    private func makeEngine() -> Engine {
        let engine = Engine(id: makeID(), machine: Machine(configuration: configuration))
        engines.append(engine)
        return engine
    }

    func fail(_ engine: Engine?, _ message: String) {
        issues.append("\(engine.map { "repository \($0.id): " } ?? "")\(message)")
    }

    /// Adds `line` to the trace, at `index` (before what a step did) or at the end. Only when
    /// `verbose`: a failing seed is replayed verbosely for its report.
    func note(_ line: @autoclosure () -> String, at index: Int? = nil) {
        guard verbose else { return }
        trace.insert(line(), at: index ?? trace.count)
    }

    var hasMail: Bool { engines.contains { !$0.mail.isEmpty } }
    var flightIDs: [Int] { flights.keys.sorted() }

    // MARK: The world

    /// Sets up the stores before the sequence starts.
    func seed(tag: String, cache: [String]?, lastFetched: Date?) {
        store[tag] = cache
        metadata[tag] = lastFetched
    }

    func advanceTime(by seconds: Int) {
        now += Double(seconds)
    }

    /// Another part of the app writes the cache.
    func writeCache(tag: String) {
        version += 1
        store[tag] = server(tag) + ["\(tag) written \(version)"]
        valueChanged(tag: tag)
    }

    /// Another repository (of another data-source type, same tag) fetched it.
    func metadataWrittenElsewhere(tag: String) {
        saves[tag, default: 0] += 1
        metadata[tag] = now
        // Its fetch started after any mark.
        invalidated[tag] = nil
        savedStamps[tag] = marks
        if outbox != nil {
            // With writes, into the same store: a mark gone says the stored data has them.
            version += 1
            store[tag] = server(tag) + ["\(tag) fetched elsewhere \(version)"]
            valueChanged(tag: tag)
        }
        metadataChanged(.tag(tag))
    }

    /// `Teller.invalidate(tag:)`.
    func invalidate(tag: String) {
        invalidated[tag] = nextID
        marks += 1
        // An explicit request: any input that reads the metadata from now on may refresh for it,
        // before the notice itself is processed.
        for engine in engines where engine.machine.requirements?.tag == tag || engine.requested?.tag == tag {
            engine.mayNotRefreshAutomatically = false
        }
        metadataChanged(.invalidated(tag))
    }

    /// `Teller.appDidBecomeActive()`.
    func appBecameActive() {
        for engine in engines where !engine.isReleased {
            engine.mail.append(.input(.triggered(.appBecameActive)))
        }
    }

    /// `Teller.clear()`.
    func clear() {
        metadata = [:]
        metadataChanged(.all)
    }

    /// What the server has of `tag`: the texts of the writes it took.
    func server(_ tag: String) -> [String] {
        outbox?.server[tag] ?? []
    }

    private func valueChanged(tag: String) {
        for engine in engines where engine.subscription?.tag == tag {
            engine.subscription?.hasPendingValue = true
        }
    }

    func metadataChanged(_ change: MetadataChange) {
        for engine in engines where !engine.isReleased {
            engine.mail.append(.metadataChanged(change))
        }
    }

    private func storedFetch(_ tag: String?) -> TypedStoredFetch<Never>? {
        tag.flatMap { tag in
            metadata[tag].map { TypedStoredFetch(lastFetched: $0, isInvalidated: invalidated[tag] != nil) }
        }
    }

    // MARK: The cache subscription

    /// The store sends its current value to `engine`'s subscription.
    func deliverCache(to engine: Engine) {
        guard var subscription = engine.subscription else { return }
        let cache = store[subscription.tag] ?? []
        subscription.hasPendingValue = false
        engine.subscription = subscription
        engine.mail.append(
            .input(.cacheEmitted(observation: subscription.observation, cache: cache, isEmpty: cache.isEmpty))
        )
    }

    /// The data source's `observeCache` fails: the subscription is over.
    func failCache(of engine: Engine) {
        guard let subscription = engine.subscription else { return }
        engine.subscription = nil
        engine.mail.append(.input(.cacheFailed(observation: subscription.observation, error: TestError(9))))
    }

    // MARK: Flights

    private func makeWork(
        tag: String,
        context: FlightContext,
        deliver: @escaping @Sendable (FlightEvent) -> Void
    ) -> any Disposable {
        let id = makeID()
        if flights.values.contains(where: { $0.tag == tag }) {
            fail(nil, "a second flight for \"\(tag)\" started while one is in progress")
        }
        flights[id] = Flight(tag: tag, deliver: deliver, context: context, server: server(tag), stamp: marks)
        return Disposables.create { [self] in abandon(id) }
    }

    /// The coordinator cancelled the flight (nobody waits any more).
    private func abandon(_ id: Int) {
        guard let flight = flights.removeValue(forKey: id) else { return }
        // A save is never cut short: the coordinator does not cancel a flight that saves.
        if flight.isSaving { fail(nil, "the flight of \"\(flight.tag)\" was cancelled while saving") }
    }

    private func save(tag: String, empty: Bool, flight: Flight, id: Int) {
        if savedStamps[tag, default: 0] > flight.stamp {
            // A fetch that started after a mark this one predates saved already: the store keeps
            // its newer data, and counts as this fetch's save for the callers that waited.
            saves[tag, default: 0] += 1
            return
        }
        savedStamps[tag] = max(savedStamps[tag, default: 0], flight.stamp)
        if let mark = invalidated[tag], id > mark { invalidated[tag] = nil }
        version += 1
        store[tag] = flight.server + (empty ? [] : ["\(tag) fetched \(version)"])
        saves[tag, default: 0] += 1
        metadata[tag] = now
        valueChanged(tag: tag)
        metadataChanged(.tag(tag))
    }

    /// Moves the flight `id` on: a fetch ends, or a save does.
    func progress(_ id: Int, _ outcome: FlightOutcome) {
        guard var flight = flights[id] else { return }
        func finish(_ result: RefreshResult) {
            flights[id] = nil
            flight.deliver(.finished(result))
        }
        switch (flight.isSaving, outcome) {
        case (false, .fetchFails), (true, .saveFails):
            finish(.failedError(error: TestError(flight.isSaving ? 2 : 1)))
        case (false, .fetchTimesOut):
            finish(.failedError(error: TellerError.fetchTimedOut(tag: flight.tag, seconds: 60)))
        case (false, .fetchFailsAndIsRetried):
            // The retry policy: the waiters hear of the retry, then of its start; it fetches on.
            let pending = PendingRetry(failedAttempts: 1, lastError: TestError(3), nextAttemptAt: now + 5)
            flight.deliver(.retryScheduled(pending, delay: .seconds(5)))
            flight.deliver(.retryStarted(attempt: 2))
        case (false, _):
            flight.isSaving = true
            // Tells the waiters `.saving`; the coordinator cancelled the flight if it says no.
            guard flight.context.beginSave() else {
                fail(nil, "the flight of \"\(flight.tag)\" was cancelled but still runs")
                return
            }
            flights[id] = flight
        case (true, .saveSucceedsEmpty):
            save(tag: flight.tag, empty: true, flight: flight, id: id)
            finish(.successful)
        case (true, _):
            save(tag: flight.tag, empty: false, flight: flight, id: id)
            finish(.successful)
        }
    }

    // MARK: The public API

    func setRequirements(_ requirements: TestRequirements?, of engine: Engine) {
        engine.requested = requirements
        engine.savesBeforeRequested = requirements.map { saves[$0.tag, default: 0] } ?? 0
        engine.mail.append(.setRequirements(requirements))
    }

    func observe(_ engine: Engine) {
        engine.mail.append(.input(.observed))
        // As the engine does for the first observer; this model's observers never leave.
        if !engine.isObserved {
            engine.isObserved = true
            engine.mail.append(.input(.observerAdded(Machine.Observer(id: 1, observer: AnyObserver { _ in }))))
        }
    }

    /// `refresh(force:)` or, with `ifNoCache`, `refreshIfNoCache()`, subscribed. Returns the
    /// caller, or `nil` when the call throws (no requirements).
    @discardableResult
    func refresh(_ engine: Engine, force: Bool, ifNoCache: Bool = false) -> Int? {
        guard let tag = engine.requested?.tag else { return nil }
        let id = makeID()
        callers[id] = Caller(
            engine: engine,
            tag: tag,
            hadCache: ifNoCache && metadata[tag] != nil,
            savesBefore: engine.savesBeforeRequested
        )
        waitingCallers.append(id)
        // A call's `Single` is answered with a success only.
        let respond: Single<RefreshResult>.SingleObserver = { [self] event in
            if case .success(let result) = event { answer(id, result) }
        }
        let call = RefreshCall(ifNoCache ? .ifNoCache : .refresh(force: force), single: respond, owner: engine)
        callers[id]?.call = call
        engine.mail.append(.refresh(call))
        return id
    }

    /// The caller's `Single` is disposed.
    func leave(_ id: Int) {
        guard let caller = callers[id], caller.isWaiting else { return }
        callers[id]?.hasLeft = true
        waitingCallers.removeAll { $0 == id }
        caller.call?.dispose()
    }

    private func answer(_ id: Int, _ result: RefreshResult) {
        guard let caller = callers[id] else { return fail(nil, "an unknown caller was answered") }
        if caller.hasLeft { fail(caller.engine, "caller \(id) was answered \(result) after it left") }
        if caller.answers > 0 { fail(caller.engine, "caller \(id) was answered twice (again \(result))") }
        callers[id]?.answers += 1
        waitingCallers.removeAll { $0 == id }
        // A success is about the caller's requirements: a fetch of theirs was saved since they
        // were set (or, for `refreshIfNoCache()`, a cache existed when the call was made). A call
        // may join a flight that just ended, before the repository heard of the end: the two
        // happened at once, and either order is right.
        if result == .successful, !caller.hadCache, saves[caller.tag, default: 0] == caller.savesBefore {
            fail(caller.engine, "caller \(id) was answered successful but \(caller.tag) was not fetched")
        }
    }

    /// The repository is released: `engine.shutDown()`, and a new repository takes its place.
    func release(_ index: Int) {
        let engine = live[index]
        engine.isReleased = true
        engine.mail.append(.input(.shutDown))
        live[index] = makeEngine()
    }

    /// The app is killed and launched again: its repositories, their mail, the callers, the
    /// flights and the invalidation marks (kept in memory) are gone; the stores, the metadata
    /// and the outbox's journal stay. New repositories take the live ones' places.
    func relaunch(using random: inout SplitMix64) {
        for engine in engines where !engine.isKilled {
            engine.isKilled = true
            engine.isReleased = true
            engine.mail = []
            engine.subscription = nil
        }
        for id in waitingCallers { callers[id]?.hasLeft = true }
        waitingCallers = []
        flights = [:]
        coordinator = RefreshCoordinator(log: { _ in })
        invalidated = [:]
        marks = 0
        savedStamps = [:]
        live = live.map { _ in makeEngine() }
        outbox?.relaunch { _ in random.percent(50) }
    }

    // MARK: The mailbox

    /// Processes the oldest input of `engine`'s mailbox.
    func processMail(of engine: Engine) {
        guard !engine.mail.isEmpty else { return }
        switch engine.mail.removeFirst() {
        case .refresh(let first):
            // Something new: an app call lifts a pause.
            engine.mayNotRefreshAutomatically = false
            var calls = [first]
            while case .refresh(let call) = engine.mail.first {
                engine.mail.removeFirst()
                calls.append(call)
            }
            handle(.refresh(calls), in: engine)
        case .input(let input):
            switch input {
            case .observed, .triggered:
                // Something new: an app call, or an outside event that lifts a pause.
                engine.mayNotRefreshAutomatically = false
            case .shutDown:
                startEpoch(engine)
            default:
                break
            }
            handle(input, in: engine)
        case .setRequirements(let requirements):
            let stored = storedFetch(requirements?.tag)
            let writes = requirements.flatMap { outbox?.writes(tag: $0.tag) } ?? TagWrites()
            engine.latest = nil
            engine.writes = ShownWritesExpectation(told: writes)
            engine.shownWriteIDs = []
            startEpoch(engine)
            handle(.setRequirements(requirements, stored: stored, writes: writes), in: engine)
        case .flightLeft(let flight):
            handle(.flightLeft(flight, stored: storedFetch(engine.machine.requirements?.tag)), in: engine)
        case .flightFinished(let flight, let result):
            let stored = storedFetch(engine.machine.requirements?.tag)
            let isCurrent = engine.flightEpochs[flight] == engine.epoch && engine.machine.active?.flight?.id == flight
            if result.didSucceed, stored?.isInvalidated == true {
                // The fetch started before an invalidation: exactly one more follows it.
                engine.mayNotRefreshAutomatically = false
            }
            if isCurrent {
                switch result {
                case .successful: engine.lastResultSinceEmit = true
                case .failedError: engine.lastResultSinceEmit = false
                case .skipped: break
                }
            }
            handle(.flightFinished(flight, result: result, stored: stored, saved: nil), in: engine)
            if isCurrent, case .failedError = result {
                engine.mayNotRefreshAutomatically = true
            }
        case .metadataChanged(let change):
            guard let tag = engine.machine.requirements?.tag, change.concerns(tag) else { return }
            let stored = storedFetch(tag)
            if stored == nil || change.isInvalidation {
                // Clearing is something new; so is an invalidation (an explicit request).
                engine.mayNotRefreshAutomatically = false
            }
            handle(.metadataChanged(tag: tag, stored: stored, invalidation: change.isInvalidation), in: engine)
        case .writesChanged(let changed, let sent):
            guard let tag = engine.machine.requirements?.tag, changed == tag, let outbox else { return }
            let writes = outbox.writes(tag: tag)
            engine.writes.read(writes, sent: sent)
            // The last write left: an invalidation held back for the writes refreshes now.
            if writes.pending.isEmpty { engine.mayNotRefreshAutomatically = false }
            handle(.writesChanged(writes, sent: sent), in: engine)
        }
    }

    private func startEpoch(_ engine: Engine) {
        engine.epoch += 1
        engine.lastResultSinceEmit = nil
        engine.mayNotRefreshAutomatically = false
    }

    private func handle(_ input: Machine.Input, in engine: Engine) {
        let actions = engine.machine.handle(input, now: now)
        checkStatedReason(for: input, actions, in: engine)
        for action in actions {
            perform(action, in: engine)
            if outbox != nil, case .emit(let state) = action {
                checkTakenWritesLeave(state, emittedBy: engine, handling: input)
            }
        }
    }

    /// Every input leads to an action, `.quiet` with its reason when nothing is to be done; and
    /// a value of the cache subscription the engine holds now is never called stale.
    private func checkStatedReason(
        for input: Machine.Input,
        _ actions: [Machine.Action],
        in engine: Engine
    ) {
        if actions.isEmpty {
            fail(engine, "\(input) was ignored without a stated reason")
        }
        let callsItStale = actions.contains { if case .quiet(.otherObservation) = $0 { true } else { false } }
        if callsItStale, case .cacheEmitted(let observation, _, _) = input,
            engine.subscription?.observation == observation
        {
            fail(engine, "a value of the current cache subscription (#\(observation)) was ignored as stale")
        }
    }

    // MARK: Actions, as the engine performs them

    private func perform(_ action: Machine.Action, in engine: Engine) {
        if verbose { note("    r\(engine.id) → \(describe(action))") }
        switch action {
        case .emit(let state):
            check(state, emittedBy: engine)
            if outbox != nil { checkWrites(state, emittedBy: engine) }
            engine.latest = state
            engine.lastResultSinceEmit = nil
        case .emitSignedOut:
            if engine.machine.requirements != nil { fail(engine, "signed out with requirements set") }
            engine.latest = nil
        case .observeCache(let requirements, _, let observation):
            engine.subscription = Subscription(observation: observation, tag: requirements.tag)
        case .stopObservingCache:
            engine.subscription = nil
        case .startRefreshTimer, .stopRefreshTimer:
            break
        case .joinFlight(let requirements, let flight):
            engine.membership = (flight, joinFlight(requirements, flight: flight, in: engine))
        case .leaveFlight(let flight):
            let joined = engine.membership?.flight == flight ? engine.membership?.membership : nil
            if joined != nil { engine.membership = nil }
            if joined?.leave() ?? true {
                engine.mail.append(.flightLeft(flight))
            }
        case .respond(let calls, let result):
            for call in calls {
                if !engine.answered.insert(ObjectIdentifier(call)).inserted {
                    fail(engine, "a call was answered twice (again \(result))")
                }
                call.answer(result)
            }
        case .greet, .complete, .log, .logs, .quiet:
            break
        case .extra(let never):
            switch never {}
        }
    }

    private func joinFlight(
        _ requirements: TestRequirements,
        flight: UInt64,
        in engine: Engine
    ) -> RefreshCoordinator.Membership {
        if engine.flightEpochs[flight] != nil {
            fail(engine, "the wait \(flight) joined a flight twice")
        }
        engine.flightEpochs[flight] = engine.epoch
        if engine.machine.active?.flight?.calls.isEmpty == true, engine.mayNotRefreshAutomatically {
            fail(engine, "a failed flight started another by itself (wait \(flight)): a refresh storm")
        }
        return coordinator.join(
            key: FlightKey(InMemoryDataSource.self, tag: requirements.tag),
            waiter: { event in
                switch event {
                case .saving:
                    engine.mail.append(.input(.flightSaving(flight)))
                case .retryScheduled(let retry, _):
                    engine.mail.append(.input(.flightRetry(flight, pending: retry)))
                case .retryStarted:
                    engine.mail.append(.input(.flightRetry(flight, pending: nil)))
                case .finished(let result, _):
                    engine.mail.append(.flightFinished(flight, result: result))
                }
            },
            makeWork: { makeWork(tag: requirements.tag, context: $0, deliver: $1) }
        )
    }

    // MARK: Invariants

    /// Every state belongs to the current requirements, shows only their data, and says "just
    /// finished" or shows an error only right after a flight of theirs ended that way.
    private func check(_ state: State, emittedBy engine: Engine) {
        guard let requirements = engine.machine.requirements, !engine.machine.isShutDown else {
            return fail(engine, "emitted \(StateSummary(state)) with no requirements or after shutdown")
        }
        if state.requirements?.tag != requirements.tag {
            fail(engine, "emitted a state of \(state.requirements?.tag ?? "nil") while showing \(requirements.tag)")
        }
        if let cache = state.cache, cache.contains(where: { !$0.hasPrefix(requirements.tag) }) {
            fail(engine, "emitted another tag's data \(cache) for \(requirements.tag)")
        }
        let justFinished = state.justFinishedFirstFetch || state.justFinishedSuccessfulRefresh
        if justFinished, engine.lastResultSinceEmit != true {
            fail(engine, "emitted \(StateSummary(state)) with no successful flight of its requirements")
        }
        if state.refreshError != nil, engine.lastResultSinceEmit != false {
            fail(engine, "emitted \(StateSummary(state)) with no failed flight of its requirements")
        }
        if engine.lastResultSinceEmit == false, state.refreshError == nil, !state.isRefreshing {
            fail(engine, "a failed flight ended and the state shows no error: \(StateSummary(state))")
        }
    }

    /// Whether nothing is left to happen without a new input: no flight, no mail.
    var isQuiet: Bool {
        flights.isEmpty && !hasMail
    }

    /// Checks what must hold whenever nothing is in flight: nobody shows a fetch.
    func checkQuiet() {
        guard isQuiet else { return }
        for engine in live {
            if let latest = engine.latest, latest.isRefreshing || latest.isFirstFetch {
                fail(engine, "at rest, the latest state shows a fetch: \(StateSummary(latest))")
            }
        }
    }

    /// Checks what must hold at rest, after every store value was delivered: every caller
    /// answered once or gone, and each repository's latest state agrees with the stores.
    func checkAtRest() {
        checkQuiet()
        for engine in engines where !engine.isKilled {
            if engine.machine.active?.flight != nil {
                fail(engine, "at rest, still waits for a flight")
            }
            if engine.machine.requirements == nil, engine.subscription != nil {
                fail(engine, "still observes the cache with no requirements (or after shutdown)")
            }
        }
        for (id, caller) in callers.sorted(by: { $0.key < $1.key }) where caller.isWaiting {
            fail(caller.engine, "caller \(id) was never answered")
        }
        for engine in live {
            guard let requirements = engine.machine.requirements else {
                if engine.latest != nil { fail(engine, "has a latest state with no requirements") }
                continue
            }
            guard let latest = engine.latest else {
                fail(engine, "shows nothing for \(requirements.tag)")
                continue
            }
            let lastFetched = metadata[requirements.tag]
            if latest.cacheAge != lastFetched {
                fail(
                    engine,
                    "at rest shows \(StateSummary(latest)) but the tag was fetched at \(String(describing: lastFetched))"
                )
            }
            // The cache is read for observers only.
            guard engine.machine.hasObservers else {
                if engine.subscription != nil { fail(engine, "at rest, reads the cache with nobody observing") }
                continue
            }
            guard lastFetched != nil, latest.cacheReadError == nil else { continue }
            let stored = store[requirements.tag].flatMap { $0.isEmpty ? nil : $0 }
            if latest.isLoadingCache || latest.cache != stored {
                fail(engine, "at rest shows \(StateSummary(latest)) but the store holds \(String(describing: stored))")
            }
        }
        checkWritesAtRest()
    }

    // MARK: Settling

    /// Lets everything in progress happen, in a seeded order: mail is processed, the store
    /// sends what it has, flights end. Returns `false`, and reports it, if that never ends (a
    /// refresh storm).
    func settle(using random: inout SplitMix64) -> Bool {
        for _ in 0..<10_000 {
            if let engine = engines.first(where: { !$0.mail.isEmpty }) {
                processMail(of: engine)
            } else if let engine = engines.first(where: { $0.subscription?.hasPendingValue == true }) {
                deliverCache(to: engine)
            } else if let id = flightIDs.first {
                progress(id, random.pick(FlightOutcome.allCases))
            } else {
                return true
            }
        }
        fail(nil, "did not come to rest after 10,000 events: a refresh storm?")
        return false
    }

    // MARK: Trace

    func describe(_ action: Machine.Action) -> String {
        switch action {
        case .emit(let state): return "emit \(state.requirements?.tag ?? "nil"): \(StateSummary(state))"
        case .emitSignedOut: return "emitSignedOut"
        case .observeCache(let requirements, _, let observation):
            return "observeCache \(requirements.tag) #\(observation)"
        case .stopObservingCache: return "stopObservingCache"
        case .startRefreshTimer(let interval): return "startRefreshTimer \(interval)"
        case .stopRefreshTimer: return "stopRefreshTimer"
        case .joinFlight(let requirements, let flight):
            return "joinFlight \(requirements.tag) f\(flight)"
        case .leaveFlight(let flight): return "leaveFlight f\(flight)"
        case .respond(let calls, let result): return "respond \(calls.count) calls \(result)"
        case .greet(let observer): return "greet o\(observer.id)"
        case .complete(let observers): return "complete \(observers.map { "o\($0.id)" })"
        case .log(let event): return "log \(event)"
        case .logs(let events): return events.map { "log \($0)" }.joined(separator: "; ")
        case .quiet(let reason): return "quiet: \(reason)"
        case .extra(let never): switch never {}
        }
    }
}

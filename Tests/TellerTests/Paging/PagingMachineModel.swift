import Foundation
import TellerRx
import TellerTestSupport

@testable import Teller

/// A paging repository's machine inside a model of everything around it, without threads: the
/// engine (mailbox, refresh calls, the flight membership, cache subscription), the flight
/// coordinator, one serial write lane, and a data source whose store holds page numbers.
///
/// The model carries out the machine's actions the way the real engine and a faithful data
/// source do: the trim keeps page 1, a first-page flight's save is `deleteCache` + save page 1,
/// a next page's save appends it, and an observation emits the store's pages up to the page it
/// observes, on subscription and after every write. Everything asynchronous (fetch answers,
/// writes, cache deliveries, the mailbox itself) waits in the model until a random step lets it
/// happen, so a seed chooses one interleaving. Invariants are checked after every step and, at
/// rest, against the store.
struct PagingMachineModel {
    typealias DataSource = PageNumberDataSource
    typealias Machine = PagingStateMachine<DataSource>
    typealias Input = Machine.Input
    typealias Action = Machine.Action
    typealias Progress = PagingExtension<DataSource>.FirstPageProgress
    typealias State = CacheState<PagedCache<[String]>>

    struct Violation: Error, CustomStringConvertible {
        let description: String
    }

    /// What the engine's mailbox holds: inputs, and mail whose metadata is read when processed.
    enum Mail {
        case input(Input)
        /// Consecutive ones are handed to the machine as one input, as the engine's drain does.
        case refresh(RefreshCall)
        case flightLeft(UInt64)
        case setRequirements(TestRequirements?)
        /// `saved`: the first page's progress a successful save brought.
        case flightFinished(UInt64, result: RefreshResult, saved: Progress?)
        /// `nil`: every tag (`Teller.clear()`). `invalidation`: only the tag's mark changed
        /// (`Teller.invalidate(tag:)`).
        case metadataChanged(tag: String?, invalidation: Bool = false)
        /// The outbox's notice: the writes to `tag` changed; read when processed.
        case writesChanged(tag: String, sent: OutboxRecord?)
    }

    enum Phase {
        case fetching
        /// Fetched; its save waits in the lane.
        case saveQueued
        /// The lane started its save and told the waiters (`.saving`).
        case saving
    }

    /// A first-page flight in the coordinator (one per tag). Once its save is queued it is not
    /// cancelled any more: it stays, members or not, until the save ends.
    struct Flight {
        let id: Int
        /// The repository's flight waits that joined it, with the generation each joined in.
        var members: [(wait: UInt64, generation: Int)]
        var phase = Phase.fetching
    }

    /// A write in the repository's serial lane.
    enum Write {
        case trim(tag: String, session: Int, generation: Int)
        /// `started`: its `.saving` was sent, the store is written next.
        case firstPage(tag: String, flight: Int, started: Bool)
        case nextPage(tag: String, page: Int, id: Int, generation: Int, mark: Int)
    }

    struct Subscription {
        let tag: String
        let view: Int
        /// The machine's number for the subscription: its values carry it.
        let observation: Int
        var subscribed = false
        /// Values read from the store, on their way to the mailbox (observed on the UI queue).
        var pending: [[Int]] = []
    }

    struct NextPageFetch {
        let id: Int
        let page: Int
        let generation: Int
        /// The first-page saves of the tag begun when it started; `nil`: one saved then, so it
        /// does not start (``RefreshCoordinator/savedDataMark(_:)``).
        let mark: Int?
    }

    static let octocat = TestRequirements(username: "octocat")
    static let hubot = TestRequirements(username: "hubot")
    static let maxAgeOfCache = Period(unit: 1, component: .hour)

    /// The server's pages: page `n` says more pages exist while `n < serverPages`.
    let serverPages: Int
    let automaticallyRefresh: Bool
    /// How often, in percent, a save throws.
    let saveFailurePercent: Int
    var machine: Machine
    var random: SplitMix64
    var now = Date(timeIntervalSince1970: 1_000_000)
    /// Every step, when tracing (a failing seed is replayed with it).
    let tracer: Tracer?

    /// What happened, step by step, when tracing.
    var trace: [String] {
        tracer?.lines ?? []
    }

    final class Tracer {
        var lines: [String] = []
    }

    // The engine.
    var mailbox: [Mail] = []
    var mailboxHead = 0
    var requested: TestRequirements?
    /// The generation the machine's actions must carry: one per processed requirements change.
    var generation = 0
    /// Refresh calls, numbered in the order they were made.
    var calls: [RefreshCall] = []
    var callNumbers: [ObjectIdentifier: Int] = [:]
    /// Calls whose `Single` is still subscribed and not answered yet.
    var registered: Set<Int> = []
    var answers: [Int: Int] = [:]
    /// The flight joined last, as the engine's membership slot holds it.
    var membership: (tag: String, flight: Int, wait: UInt64)?
    /// What a new observer would get first; the last state an observer got.
    var latest: State?
    /// A failed flight of the current requirements paused automatic refreshes, and nothing new
    /// happened since.
    var expectsAutomaticRefreshPaused = false
    /// The observers subscribed now, by the ids the model gave them.
    var observerIDs: [UInt64] = []
    var nextObserverID: UInt64 = 0
    var shutDownCalled = false

    // The world.
    var flights: [String: Flight] = [:]
    var lane: [Write] = []
    var subscription: Subscription?
    var nextPageFetch: NextPageFetch?
    var stores: [String: [Int]] = [:]
    var metadata: [String: (lastFetched: Date, areMorePages: Bool)] = [:]
    /// Invalidated tags, with the last flight started before the mark: a later flight's save
    /// clears it (Teller's `Invalidations`).
    var invalidated: [String: Int] = [:]
    var nextFlightID = 0
    /// First-page saves begun per tag (the coordinator's count, begun when a fetch succeeded).
    var firstPageSavesBegun: [String: Int] = [:]

    // The app's writes, when the seed sends some.
    var outbox: OutboxQueueModel?
    /// The outbox's notices not yet posted to the mailbox.
    let notices = NoticeBox()
    /// What the states must say of the tag's writes.
    var writes = ShownWritesExpectation()
    /// The writes the last state of the current requirements showed.
    var shownWriteIDs: Set<UUID> = []

    /// Where the outbox's notices wait: the model is a value, the outbox's callback cannot
    /// change it.
    final class NoticeBox {
        var notices: [OutboxQueueModel.Notice] = []
    }

    init(seed: UInt64, tracing: Bool = false, withWrites: Bool = false) {
        var random = SplitMix64(seed: seed)
        serverPages = random.int(1...5)
        automaticallyRefresh = random.percent(75)
        saveFailurePercent = random.pick([0, 0, 10, 30, 100])
        self.random = random
        tracer = tracing ? Tracer() : nil
        machine = Machine(
            configuration: .init(automaticallyRefresh: automaticallyRefresh, maxAgeOfCache: Self.maxAgeOfCache),
            extension: PagingExtension<DataSource>(firstPage: PageNumber(number: 1))
        )
        for requirements in [Self.octocat, Self.hubot] where self.random.percent(50) {
            // Fetched by an earlier launch, some pages deep, fresh or too old.
            let pages = self.random.int(1...serverPages)
            stores[requirements.tag] = Array(1...pages)
            let age = TimeInterval(self.random.int(0...7_200))
            metadata[requirements.tag] = (now.addingTimeInterval(-age), 1 < serverPages)
        }
        if withWrites { attachOutbox() }
        if self.random.percent(85) {
            requested = Self.octocat
            post(.setRequirements(Self.octocat))
            subscribeObserver()
        }
        note(
            "server has \(serverPages) pages, automaticallyRefresh \(automaticallyRefresh), "
                + "saves fail \(saveFailurePercent)%, stores \(stores), metadata \(metadata)"
        )
    }

    // MARK: Driving

    /// Runs `steps` random steps (app calls and asynchronous progress), checking after each.
    mutating func run(steps: Int) throws {
        for _ in 0..<steps {
            if shutDownCalled || !randomAppCall() {
                guard try progress() else { continue }
            }
            try checkAlways()
        }
    }

    /// Lets everything pending happen, in a random order, until nothing is left; then checks
    /// what is shown against the store.
    mutating func comeToRest() throws {
        var steps = 0
        while try progress() {
            try checkAlways()
            steps += 1
            if steps > 5_000 {
                throw Violation(description: "never comes to rest: a refresh storm?")
            }
        }
        try checkAtRest()
    }

    // MARK: App calls

    /// Makes one random app call (or outside event); `false` if the dice chose progress instead.
    mutating func randomAppCall() -> Bool {
        enum Call {
            case setRequirements, observe, refresh, refreshUnforced, refreshIfNoCache, leave, nextPage
            case otherRepositoryRefreshed, clear, invalidate, trigger, observers, clock, shutDown, progress
            case writes
        }
        let call = random.pick(weighted: [
            (5, Call.setRequirements), (5, .observe), (5, .refresh), (3, .refreshUnforced),
            (3, .refreshIfNoCache), (4, .leave), (14, .nextPage), (2, .otherRepositoryRefreshed), (1, .clear),
            (2, .invalidate), (2, .trigger), (2, .observers), (4, .clock), (1, .shutDown), (51, .progress),
            (outbox == nil ? 0 : 16, .writes),
        ])
        switch call {
        case .setRequirements:
            let requirements: TestRequirements? = random.pick(weighted: [
                (45, Self.octocat), (35, Self.hubot), (20, nil),
            ])
            note("app: requirements = \(requirements?.username ?? "nil")")
            requested = requirements
            post(.setRequirements(requirements))
        case .observe:
            subscribeObserver()
        case .refresh, .refreshUnforced, .refreshIfNoCache:
            // The façade throws without requirements.
            guard requested != nil else { return false }
            let kind: RefreshCall.Kind =
                switch call {
                case .refresh: .refresh(force: true)
                case .refreshUnforced: .refresh(force: false)
                default: .ifNoCache
                }
            let refreshCall = RefreshCall(kind, single: { _ in })
            calls.append(refreshCall)
            callNumbers[ObjectIdentifier(refreshCall)] = calls.count
            registered.insert(calls.count)
            note("app: \(call) as call \(calls.count)")
            post(.refresh(refreshCall))
        case .leave:
            guard !registered.isEmpty else { return false }
            let number = random.pick(registered.sorted())
            note("app: call \(number) leaves")
            registered.remove(number)
            // As the call's disposal tells the engine (it was not answered yet).
            calls[number - 1].dispose()
            post(.input(.refreshCallLeft(calls[number - 1])))
        case .nextPage:
            note("app: goToNextPage()")
            post(.input(.extra(.goToNextPage)))
        case .otherRepositoryRefreshed:
            return otherRepositoryRefreshed()
        case .clear:
            note("app: Teller.clear()")
            metadata = [:]
            post(.metadataChanged(tag: nil))
        case .invalidate:
            let tag = random.pick([Self.octocat, Self.hubot]).tag
            note("app: Teller.invalidate(tag: \(tag))")
            invalidated[tag] = nextFlightID
            post(.metadataChanged(tag: tag, invalidation: true))
        case .trigger:
            let trigger = random.pick([RefreshTrigger.appBecameActive, .networkAvailable, .interval])
            note("outside: \(trigger)")
            post(.input(.triggered(trigger)))
        case .observers:
            // The engine says so when the first observer comes or the last one goes.
            if observerIDs.isEmpty || random.percent(60) {
                subscribeObserver()
            } else {
                let id = observerIDs.remove(at: random.int(0...(observerIDs.count - 1)))
                note("app: observer o\(id) leaves")
                post(.input(.observerRemoved(id)))
            }
        case .clock:
            let seconds = random.int(60...5_400)
            now = now.addingTimeInterval(TimeInterval(seconds))
            note("clock +\(seconds)s")
        case .shutDown:
            note("app: repository released")
            shutDownCalled = true
            // The effects stop the trim and the next page; the lane decides about a queued trim.
            cancelNextPageFetch()
            cancelQueuedSessionWrites()
            post(.input(.shutDown))
        case .progress:
            return false
        case .writes:
            return randomWritesCall()
        }
        return true
    }

    /// Another repository showing the same list (one that does not page meanwhile) fetched and
    /// saved a new first page. Only while this repository writes nothing and runs no flight for
    /// the tag: otherwise the two would share the flight, and paging in two repositories at once
    /// is documented as unsupported.
    mutating func otherRepositoryRefreshed() -> Bool {
        let answerPending = mailbox[mailboxHead...].contains { mail in
            if case .input(.extra(.nextPageFetched)) = mail { return true }
            return false
        }
        guard let tag = requested?.tag ?? machine.requirements?.tag, flights[tag] == nil, lane.isEmpty,
            nextPageFetch == nil, !answerPending
        else { return false }
        note("another repository saves a new first page of \(tag)")
        stores[tag] = nil
        changed(tag)
        stores[tag] = [1]
        changed(tag)
        firstPageSavesBegun[tag, default: 0] += 1
        metadata[tag] = (now, 1 < serverPages)
        // Its fetch started after any mark.
        invalidated[tag] = nil
        post(.metadataChanged(tag: tag))
        return true
    }

    // MARK: Asynchronous progress

    /// Lets one pending thing happen: the mailbox processes an input, a fetch answers, the lane
    /// writes, the cache delivers. `false` when nothing is pending.
    mutating func progress() throws -> Bool {
        enum Step {
            case mail
            case flight(String)
            case lane, subscribe, deliver, nextPage
        }
        var steps: [(weight: Int, choice: Step)] = []
        if mailboxHead < mailbox.count { steps.append((6, .mail)) }
        for tag in flights.keys.sorted() where flights[tag]?.phase == .fetching { steps.append((2, .flight(tag))) }
        if !lane.isEmpty { steps.append((3, .lane)) }
        if let subscription {
            if !subscription.subscribed {
                steps.append((2, .subscribe))
            } else if !subscription.pending.isEmpty {
                steps.append((3, .deliver))
            }
        }
        if nextPageFetch != nil { steps.append((2, .nextPage)) }
        guard !steps.isEmpty else { return false }
        // Time passes: two saves never share a fetch time.
        now = now.addingTimeInterval(1)
        switch random.pick(weighted: steps) {
        case .mail:
            let mail = mailbox[mailboxHead]
            mailboxHead += 1
            if mailboxHead == mailbox.count {
                mailbox.removeAll(keepingCapacity: true)
                mailboxHead = 0
            }
            try process(mail)
        case .flight(let tag):
            answerFlight(tag)
        case .lane:
            write()
        case .subscribe:
            if var subscribing = subscription {
                subscribing.subscribed = true
                subscribing.pending.append(snapshot(subscribing))
                subscription = subscribing
            }
            note("cache subscribed")
        case .deliver:
            deliverCache()
        case .nextPage:
            answerNextPage()
        }
        return true
    }

    mutating func answerFlight(_ tag: String) {
        guard let flight = flights[tag] else { return }
        switch random.pick(weighted: [(55, 0), (20, 1), (10, 2), (15, 3)]) {
        case 0:
            note("flight \(flight.id) for \(tag) fetched page 1")
            flights[tag]?.phase = .saveQueued
            firstPageSavesBegun[tag, default: 0] += 1
            lane.append(.firstPage(tag: tag, flight: flight.id, started: false))
        case 1:
            note("flight \(flight.id) for \(tag) failed")
            finishFlight(tag, id: flight.id, result: .failedError(error: TestError(1)))
        case 3:
            // The retry policy: members hear of the retry, then of its start; it fetches on.
            note("flight \(flight.id) for \(tag) failed and is tried again")
            let pending = PendingRetry(failedAttempts: 1, lastError: TestError(3), nextAttemptAt: now + 5)
            for member in flight.members {
                post(.input(.flightRetry(member.wait, pending: pending)))
                post(.input(.flightRetry(member.wait, pending: nil)))
            }
        default:
            note("flight \(flight.id) for \(tag) timed out")
            finishFlight(
                tag,
                id: flight.id,
                result: .failedError(error: TellerError.fetchTimedOut(tag: tag, seconds: 1))
            )
        }
    }

    /// The coordinator tells every member of a flight that ended, and forgets it.
    mutating func finishFlight(_ tag: String, id: Int, result: RefreshResult, saved: Progress? = nil) {
        guard let flight = flights[tag], flight.id == id else { return }
        flights[tag] = nil
        for member in flight.members {
            post(.flightFinished(member.wait, result: result, saved: saved))
        }
    }

    /// Runs the lane's next write (a first page's save in two steps: `.saving`, then the write).
    mutating func write() {
        let next = lane[0]
        switch next {
        case .trim(let tag, let session, _):
            lane.removeFirst()
            note("lane: trim \(tag)")
            if let store = stores[tag] { stores[tag] = Array(store.prefix(1)) }
            changed(tag)
            post(.input(.extra(.trimmed(session: session))))
        case .firstPage(let tag, let id, started: false):
            lane[0] = .firstPage(tag: tag, flight: id, started: true)
            note("lane: flight \(id) saving")
            guard let flight = flights[tag], flight.id == id else { return }
            flights[tag]?.phase = .saving
            for member in flight.members {
                post(.input(.flightSaving(member.wait)))
            }
        case .firstPage(let tag, let id, started: true):
            lane.removeFirst()
            stores[tag] = nil
            changed(tag)
            let result: RefreshResult
            if random.percent(saveFailurePercent) {
                note("lane: flight \(id) deleted \(tag), its save throws")
                result = .failedError(error: TestError(2))
                // FlightWork: the stored progress no longer says more pages exist.
                if let previous = metadata[tag], previous.areMorePages {
                    metadata[tag] = (previous.lastFetched, false)
                    post(.metadataChanged(tag: tag))
                }
            } else {
                note("lane: flight \(id) deleted \(tag), saved page 1")
                stores[tag] = [1]
                changed(tag)
                metadata[tag] = (now, 1 < serverPages)
                if let mark = invalidated[tag], id > mark { invalidated[tag] = nil }
                post(.metadataChanged(tag: tag))
                finishFlight(tag, id: id, result: .successful, saved: Progress(areMorePages: 1 < serverPages))
                return
            }
            finishFlight(tag, id: id, result: result)
        case .nextPage(let tag, let page, let id, _, let mark):
            lane.removeFirst()
            if firstPageSavesBegun[tag, default: 0] != mark {
                note("lane: page \(page) of \(tag) dropped, a first page was saved since it was fetched")
                post(.input(.extra(.nextPageDropped(id: id))))
            } else if random.percent(saveFailurePercent) {
                note("lane: save of page \(page) of \(tag) throws")
                post(.input(.extra(.nextPageSaved(id: id, error: TestError(3)))))
            } else {
                note("lane: saved page \(page) of \(tag)")
                stores[tag, default: []].append(page)
                changed(tag)
                post(.input(.extra(.nextPageSaved(id: id, error: nil))))
            }
        }
    }

    mutating func deliverCache() {
        guard let subscription, !subscription.pending.isEmpty else { return }
        let pages = self.subscription?.pending.removeFirst() ?? []
        note("cache delivers \(pages)")
        post(.input(cacheEmitted(pages, observation: subscription.observation)))
    }

    func cacheEmitted(_ pages: [Int], observation: Int) -> Input {
        .cacheEmitted(observation: observation, cache: pages.map(String.init), isEmpty: pages.isEmpty)
    }

    mutating func answerNextPage() {
        guard let fetch = nextPageFetch else { return }
        nextPageFetch = nil
        let outcome = randomNextPageOutcome(fetch)
        note("next page \(fetch.page) (id \(fetch.id)) answers \(outcome)")
        post(.input(.extra(.nextPageFetched(id: fetch.id, outcome))))
    }

    mutating func randomNextPageOutcome(_ fetch: NextPageFetch) -> NextPageOutcome<DataSource> {
        guard let mark = fetch.mark else { return .firstPageBeingReplaced }
        switch random.pick(weighted: [(70, 0), (20, 1), (10, 2)]) {
        case 0:
            let response = PagedFetchResponse<[String], Void>(
                areMorePages: fetch.page < serverPages,
                nextPageRequirements: nil,
                fetchResponse: ["\(fetch.page)"]
            )
            return .fetched(PageNumber(number: fetch.page), response, mark: mark)
        case 1:
            return .failed(TestError(4))
        default:
            return .failed(TellerError.fetchTimedOut(tag: "next page", seconds: 1))
        }
    }
}

extension PagingMachineModel {
    /// `observe()` is subscribed: as the engine does, the machine hears `.observed`, then the
    /// observer.
    mutating func subscribeObserver() {
        nextObserverID += 1
        observerIDs.append(nextObserverID)
        note("app: observe(), observer o\(nextObserverID) subscribes")
        post(.input(.observed))
        post(.input(.observerAdded(Machine.Observer(id: nextObserverID, observer: AnyObserver { _ in }))))
    }
}

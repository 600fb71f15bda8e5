import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Seeded random scripts on real queues through the outbox's and the repository's public API:
/// two threads enqueue edits (three kinds, one per conflict policy; two tags; each tag's scope
/// or one scope they share), take the network down and up, make the app active, take the
/// server offline, refresh and invalidate, discard writes, settle conflicts and acknowledge
/// rejections, and write the server's list into the cache from their own thread, while the fake
/// server (``OutboxStressServer``) answers from any thread, late, after the outbox's timeout,
/// twice or never, and the data source (``MisbehavingDataSource``) fails, never answers and tells
/// its observers from its own queue. Between phases the app is killed and relaunched: the
/// outbox, the repositories and the Teller are dropped and new ones made on the same journal
/// file, data source and metadata.
///
/// Checked:
/// - every state a screen showed with a cache holds every write it says is pending;
/// - the server never had two sends of one scope under way at once;
/// - every write whose enqueue returned ends taken by the server (more than once only with its
///   own idempotency key, and on its list once), listed as rejected, or discarded (by the test,
///   or by the outbox said so for a server-wins conflict); the outbox never says a write was sent
///   or rejected that the server did not take or refuse;
/// - at rest, after a last relaunch with the server and data source calm, the conflicts earlier
///   launches kept settled, and one kind's handler
///   not registered: only that kind's writes and those behind them in their scopes wait; each
///   screen shows the server's list with them on top, and lists exactly the outbox's pending
///   writes of its tag; once that handler is registered and
///   its writes went out, the server's list and nothing pending.
///
/// Rest is waited for, never slept for: the outbox's ``TellerOutbox/changes`` and the screens'
/// states wake the waiting thread, which reads the public API; a relaunch waits for the old
/// outbox's `changes` to complete (it is gone) and then for every scheduled piece of work to end.
/// Threads interleave as they will, so a seed replays the same script, not the same timing:
/// `TELLER_SEED=<seed>` runs one scenario, `TELLER_SEED_COUNT=<n>` more of them.
@Suite struct OutboxRandomizedStressTests {
    static let scenarios = 40

    @Test func randomScriptsOnRealQueuesLoseNoWriteSendOneWritePerScopeAtATimeAndEndShowingTheServerAndWhatWaits() {
        let seeds = RandomizedTestSeeds.seeds(ciCount: Self.scenarios, first: 5_000)
        let answeredTwice = Locked(0)
        let coverage = Locked(Coverage())
        let secondAnswers = MisuseCapture(accepting: {
            $0.contains(OutboxStressServer.SecondAnswer().description) || $0.contains(OutboxStressScenario.again)
        })
        let failures = secondAnswers.during {
            runScenarios(seeds: seeds, lanes: 4) { seed in
                let scenario = OutboxStressScenario(seed: seed)
                let problems = scenario.run()
                answeredTwice.withLock { $0 += scenario.answeredTwice }
                coverage.withLock { $0 = $0 + scenario.coverage }
                return problems
            }
        }
        #expect(secondAnswers.messages.count == (MisuseCapture.isReporting ? answeredTwice.value : 0))
        // The scripts reach every end a write can have (a single replayed seed may not).
        if seeds.count >= Self.scenarios {
            let done = coverage.value
            #expect(done.taken > done.writes / 2 && done.refused > 0 && done.discarded > 0, "\(done)")
            #expect(done.relaunches > seeds.count, "\(done)")
        }
        for failure in failures.prefix(3) { Issue.record("\(failure.report)") }
        #expect(failures.isEmpty, "\(failures.count) scenarios ended wrong (the run stops at 3)")
    }
}

/// How many writes scenarios enqueued, and what became of them.
private struct Coverage {
    var writes = 0
    var taken = 0
    var refused = 0
    var discarded = 0
    var relaunches = 0

    static func + (lhs: Coverage, rhs: Coverage) -> Coverage {
        Coverage(
            writes: lhs.writes + rhs.writes,
            taken: lhs.taken + rhs.taken,
            refused: lhs.refused + rhs.refused,
            discarded: lhs.discarded + rhs.discarded,
            relaunches: lhs.relaunches + rhs.relaunches
        )
    }
}

/// One scenario: a fake server, a data source and a journal that outlive the launches.
private final class OutboxStressScenario: @unchecked Sendable {
    // @unchecked: every mutable property is in a `Locked`.
    typealias Repository = TellerRepository<MisbehavingDataSource>

    /// A write whose enqueue returned.
    struct Write {
        let text: String
        let key: String
        let tag: String
    }

    /// How long to wait for what takes milliseconds, on a machine busy with other tests and
    /// ThreadSanitizer.
    static let patience = 20.0
    static let threads = 2
    static let operationsPerThread = 25
    static let kinds: [(name: String, policy: OutboxConflictPolicy)] = [
        ("addNote", .manual), ("addNoteServerWins", .serverWins), ("addNoteClientWins", .clientWins),
    ]
    static let tags = [TestRequirements(username: "ann"), TestRequirements(username: "bob")]
    /// The line the data source adds to the second answer of a fetch that answers twice.
    static let again = "again (outbox stress)"
    static let quickRetries: RetryPolicy =
        (try? RetryPolicy(maxRetries: 3, initialDelay: .milliseconds(2), maxDelay: .milliseconds(4), jitter: 0.5))
        ?? .standard

    let seed: UInt64
    let folder: URL
    let counter = WorkCounter()
    let metadata = InMemoryFetchMetadataStore()
    let server: OutboxStressServer
    let dataSource: MisbehavingDataSource
    let writes = Locked<[UUID: Write]>([:])
    let nextWrite = Locked(0)
    let discarded = Locked<Set<UUID>>([])
    let acknowledged = Locked<Set<UUID>>([])
    let outboxSaid = Locked<(sent: Set<UUID>, rejected: Set<UUID>)>(([], []))
    let problems = Locked<[String]>([])
    /// What the scenario did, once it ran.
    private(set) var coverage = Coverage()

    init(seed: UInt64) {
        self.seed = seed
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("teller-outbox-stress-\(UUID())")
        var random = SplitMix64(seed: seed)
        let lists = Dictionary(uniqueKeysWithValues: Self.tags.map { ($0.tag, ["\($0.username)'s first note"]) })
        server = OutboxStressServer(seed: random.next(), lists: lists, counter: counter)
        let server = server
        dataSource = MisbehavingDataSource(
            seed: random.next(),
            automaticallyRefresh: random.percent(75),
            scheduler: CountingScheduler(ConcurrentDispatchQueueScheduler(qos: .userInitiated), counter: counter),
            emitScheduler: random.percent(50)
                ? CountingScheduler(
                    SerialDispatchQueueScheduler(internalSerialQueueName: "outbox-stress.db"),
                    counter: counter
                )
                : nil,
            response: { requirements, _ in server.list(tag: requirements.tag) },
            applyWrites: { writes, cache in Self.apply(writes, to: cache ?? []) },
            secondAnswerMark: Self.again
        )
        for (tag, list) in lists {
            dataSource.write(list, tag: tag)
            metadata.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSinceNow: -60)), forTag: tag)
        }
    }

    var journalURL: URL {
        folder.appendingPathComponent("outbox.journal")
    }

    var answeredTwice: Int {
        server.answeredTwice + dataSource.answeredTwiceCount
    }

    /// The screen's list: the pending edits that `base` does not have yet, added at its end.
    static func apply(_ writes: [OutboxRecord], to base: [String]) -> [String] {
        base + texts(writes).filter { !base.contains($0) }
    }

    static func texts(_ writes: [OutboxRecord]) -> [String] {
        writes.map { (try? JSONDecoder().decode(NoteEdit.self, from: $0.payload).text) ?? "?" }
    }

    /// Runs the phases, the last checks, and returns what went wrong.
    func run() -> [String] {
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(seed: seed &* 7_919)
        let relaunches = 1 + random.below(3)
        for phase in 0..<relaunches {
            var launch: Launch? = Launch(self, random: &random, calm: false)
            operate(on: launch, phase: phase)
            guard shutDown(&launch) else { return problems.value }
        }
        server.calmDown()
        dataSource.calmDown()
        let held = random.pick(Self.kinds)
        var launch: Launch? = Launch(self, random: &random, calm: true, holding: held.name)
        if let last = launch {
            settle(last, held: held)
            lastRejections.withLock { $0 = Set(last.outbox.rejections.map(\.record.id)) }
        }
        _ = shutDown(&launch)
        let fates = checkFates()
        let verdicts = writes.value.values.map { server.verdict(key: $0.key) }
        coverage = Coverage(
            writes: verdicts.count,
            taken: verdicts.filter { $0 == .taken }.count,
            refused: verdicts.filter { $0 == .refused }.count,
            discarded: discarded.value.count,
            relaunches: relaunches
        )
        return problems.value + server.overlaps + fates
    }

    func report(_ problem: String) {
        problems.withLock { $0.append(problem) }
    }

    // MARK: Operations

    private enum Operation {
        case enqueue, networkDown, networkUp, appActive, serverDown, serverUp, refresh, invalidate
        case discard, resolve, acknowledge, writeCache
    }

    private func operate(on launch: Launch?, phase: Int) {
        guard let launch else { return }
        let threadsDone = DispatchGroup()
        for thread in 0..<Self.threads {
            let threadSeed = seed &* 31 &+ UInt64(phase * Self.threads + thread)
            threadsDone.enter()
            Thread { [self] in
                var random = SplitMix64(seed: threadSeed)
                for _ in 0..<Self.operationsPerThread { operate(launch, &random) }
                threadsDone.leave()
            }
            .start()
        }
        if threadsDone.wait(timeout: .now() + Self.patience) != .success {
            report("phase \(phase): the threads did not finish their operations in \(Self.patience) s")
        }
    }

    private func operate(_ launch: Launch, _ random: inout SplitMix64) {
        let outbox = launch.outbox
        let index = random.below(Self.tags.count)
        let operation: Operation = random.pick(
            [
                .enqueue, .networkDown, .networkUp, .appActive, .serverDown, .serverUp, .refresh, .invalidate,
                .discard, .resolve, .acknowledge, .writeCache,
            ],
            weights: [12, 2, 2, 1, 1, 2, 3, 2, 1, 2, 1, 1]
        )
        switch operation {
        case .enqueue:
            let number = nextWrite.withLock { number -> Int in
                defer { number += 1 }
                return number
            }
            let text = "note \(number)"
            let tag = Self.tags[index].tag
            let kind = random.pick(Self.kinds).name
            let scope = random.percent(30) ? "shared" : nil
            if let record = try? outbox.enqueue(kind: kind, payload: NoteEdit(text: text), tag: tag, scope: scope) {
                writes.withLock { $0[record.id] = Write(text: text, key: record.idempotencyKey, tag: tag) }
            }
        case .networkDown:
            outbox.networkDidBecomeUnavailable()
        case .networkUp:
            launch.teller.networkDidBecomeAvailable()
        case .appActive:
            launch.teller.appDidBecomeActive()
        case .serverDown:
            server.setOnline(false)
        case .serverUp:
            server.setOnline(true)
        case .refresh:
            _ = try? launch.repositories[index].refresh(force: random.percent(50)).subscribe()
        case .invalidate:
            launch.teller.invalidate(tag: Self.tags[index].tag)
        case .discard:
            let pending = outbox.pending
            guard !pending.isEmpty else { return }
            let record = random.pick(pending)
            if (try? outbox.discard(id: record.id)) == true { discarded.withLock { _ = $0.insert(record.id) } }
        case .resolve:
            let conflicts = outbox.conflicts
            guard !conflicts.isEmpty else { return }
            let id = random.pick(conflicts).record.id
            let keeping: OutboxConflictResolution = random.percent(50) ? .server : .mine
            if (try? outbox.resolve(conflictOf: id, keeping: keeping)) == true, keeping == .server {
                discarded.withLock { _ = $0.insert(id) }
            }
        case .acknowledge:
            let rejections = outbox.rejections
            guard !rejections.isEmpty else { return }
            let id = random.pick(rejections).record.id
            if outbox.acknowledge(rejectionOf: id) { acknowledged.withLock { _ = $0.insert(id) } }
        case .writeCache:
            // Another part of the app syncs the cache, on this thread.
            let tag = Self.tags[index].tag
            dataSource.write(server.list(tag: tag), tag: tag)
        }
    }

    // MARK: Relaunches and rest

    /// Kills the launch: drops it and waits until its outbox is gone and every piece of work it
    /// left ended. `false` when that did not happen in time.
    private func shutDown(_ launch: inout Launch?) -> Bool {
        guard let ending = launch else { return true }
        ending.stopWatching()
        let outboxGone = ending.outboxGone
        launch = nil
        _ = consume ending
        if outboxGone.wait(timeout: .now() + Self.patience) != .success {
            report("an outbox was still alive \(Self.patience) s after its launch was dropped")
            return false
        }
        if !counter.waitUntilIdle(timeout: Self.patience) {
            report("the work a launch left did not end in \(Self.patience) s")
            return false
        }
        return true
    }

    /// The last launch, calm, without a handler for `held`: waits until only the held kind's
    /// writes wait and checks the screens; then registers its handler, waits until nothing
    /// waits, and checks the screens again.
    private func settle(_ launch: Launch, held: (name: String, policy: OutboxConflictPolicy)) {
        let outbox = launch.outbox
        // A manual conflict is kept across launches until the app settles it (its scope waits
        // meanwhile): the app settles those earlier launches left, as they are read.
        var random = SplitMix64(seed: seed &+ 1)
        let settleConflicts = {
            for conflict in outbox.conflicts {
                let keeping: OutboxConflictResolution = random.percent(50) ? .server : .mine
                let id = conflict.record.id
                if (try? outbox.resolve(conflictOf: id, keeping: keeping)) == true, keeping == .server {
                    self.discarded.withLock { _ = $0.insert(id) }
                }
            }
        }
        // A scope sends in order: its writes after a held one wait behind it.
        let onlyHeldWait = launch.waitForOutbox {
            settleConflicts()
            var blocked: Set<String> = []
            for record in outbox.pending {
                if record.kind == held.name { blocked.insert(record.scope) }
                if !blocked.contains(record.scope) { return false }
            }
            return outbox.conflicts.isEmpty
        }
        guard onlyHeldWait else {
            report(
                """
                the writes not behind a \(held.name) did not leave: \(outbox.pending.count) pending, \
                \(outbox.conflicts.count) conflicts
                """
            )
            return
        }
        checkScreens(launch, stage: "with \(held.name) held")
        outbox.register(kind: held.name, onConflict: held.policy, send: server.send)
        guard launch.waitForOutbox({ outbox.conflicts.isEmpty && outbox.pending.isEmpty }) else {
            report("\(held.name)'s writes did not leave once registered: \(outbox.pending.count) pending")
            return
        }
        checkScreens(launch, stage: "with nothing pending")
    }

    /// Refreshes each screen and waits until it shows the server's list with the outbox's pending
    /// writes of its tag on top, and lists them.
    private func checkScreens(_ launch: Launch, stage: String) {
        for (repository, screen) in zip(launch.repositories, launch.screens) {
            let tag = screen.requirements.tag
            guard refreshes(repository) else {
                report("\(stage): a refresh of \(tag) did not succeed")
                continue
            }
            var expected: ([String], [UUID]) = ([], [])
            let shown = screen.waitFor { state in
                let pending = launch.outbox.pending(tag: tag)
                expected = (Self.apply(pending, to: self.server.list(tag: tag)), pending.map(\.id))
                return state.cacheExists && !state.isLoadingCache && !state.isRefreshing
                    && (state.cache ?? []) == expected.0 && state.pendingWrites.map(\.id) == expected.1
            }
            if !shown {
                let last = screen.last
                report(
                    """
                    \(stage): \(tag) shows \(String(describing: last?.cache)) with \
                    \(last?.pendingWrites.count ?? 0) pending (refreshing: \(last?.isRefreshing ?? false)), \
                    expected \(expected.0) with \(expected.1.count) pending
                    """
                )
            }
        }
    }

    /// Whether a forced refresh succeeded, in one of three tries.
    private func refreshes(_ repository: Repository) -> Bool {
        for _ in 0..<3 {
            let answered = DispatchSemaphore(value: 0)
            let result = Locked<RefreshResult?>(nil)
            let subscription = try? repository.refresh(force: true).subscribe(
                onSuccess: { answer in
                    result.withLock { $0 = answer }
                    answered.signal()
                },
                onFailure: { _ in answered.signal() }
            )
            defer { subscription?.dispose() }
            guard subscription != nil, answered.wait(timeout: .now() + Self.patience) == .success else { return false }
            if result.value?.didSucceed == true { return true }
        }
        return false
    }

    /// Each write whose enqueue returned was taken by the server, rejected or discarded.
    private func checkFates() -> [String] {
        var problems: [String] = []
        let writes = writes.value
        let discarded = discarded.value
        let acknowledged = acknowledged.value
        let said = outboxSaid.value
        let listed = lastRejections.value
        for (id, write) in writes {
            let verdict = server.verdict(key: write.key)
            let keys = server.keys(id: id)
            if !keys.isSubset(of: [write.key]) { problems.append("\(write.text) was sent with keys \(keys)") }
            let isRejected = listed.contains(id) || acknowledged.contains(id)
            switch verdict {
            case .taken:
                if isRejected { problems.append("\(write.text) was taken, and is listed as rejected") }
            case .refused:
                if !isRejected && !discarded.contains(id) {
                    problems.append("\(write.text) was refused, and neither listed as rejected nor discarded")
                }
            case nil:
                if isRejected {
                    problems.append("\(write.text) is listed as rejected, but the server never refused it")
                }
                if !isRejected && !discarded.contains(id) {
                    problems.append("\(write.text) was lost: neither taken, rejected nor discarded")
                }
            }
            if said.sent.contains(id), verdict != .taken { problems.append("the outbox said \(write.text) was sent") }
            if said.rejected.contains(id), verdict != .refused {
                problems.append("the outbox said \(write.text) was rejected")
            }
        }
        for tag in Self.tags.map(\.tag) {
            let list = server.list(tag: tag)
            if Set(list).count != list.count { problems.append("the server took a write twice: \(list)") }
        }
        return problems
    }

    /// The last launch's rejections, read before it was dropped.
    let lastRejections = Locked<Set<UUID>>([])

    fileprivate func saw(_ change: OutboxChange) {
        switch change {
        case .sent(let record): outboxSaid.withLock { _ = $0.sent.insert(record.id) }
        case .rejected(let rejection): outboxSaid.withLock { _ = $0.rejected.insert(rejection.record.id) }
        case .discarded(let record): discarded.withLock { _ = $0.insert(record.id) }
        default: break
        }
    }
}

/// One launch of the app: a Teller on counted real queues, an outbox on the scenario's journal
/// with a handler for each kind (but `held`), and a screen per tag.
private final class Launch: Sendable {
    let teller: Teller
    let outbox: TellerOutbox
    let repositories: [OutboxStressScenario.Repository]
    let screens: [Screen]
    /// Signalled when the outbox's `changes` completes: it was released.
    let outboxGone = DispatchSemaphore(value: 0)
    private let changesSeen = Wakeups()
    private let watching = CompositeDisposable()

    init(_ scenario: OutboxStressScenario, random: inout SplitMix64, calm: Bool, holding held: String? = nil) {
        let counter = scenario.counter
        teller = Teller(
            metadataStore: scenario.metadata,
            uiScheduler: CountingScheduler(
                SerialDispatchQueueScheduler(internalSerialQueueName: "outbox-stress.ui"),
                counter: counter
            ),
            backgroundScheduler: CountingScheduler(
                ConcurrentDispatchQueueScheduler(qos: .userInitiated),
                counter: counter
            ),
            // Calm, nothing times out; otherwise fetches and sends that take 50 ms do.
            fetchTimeout: calm ? .seconds(Int(OutboxStressScenario.patience)) : .milliseconds(50),
            retryPolicy: calm || random.percent(50) ? OutboxStressScenario.quickRetries : .never,
            appLifecycleNotifications: nil
        )
        outbox = TellerOutbox(
            teller: teller,
            journalURL: scenario.journalURL,
            maxConcurrentSends: random.int(1...4)
        )
        let changesSeen = changesSeen
        let outboxGone = outboxGone
        _ = watching.insert(
            outbox.changes.subscribe(
                onNext: { change in
                    scenario.saw(change)
                    changesSeen.wake()
                },
                onCompleted: { outboxGone.signal() }
            )
        )
        let server = scenario.server
        for (kind, policy) in OutboxStressScenario.kinds where kind != held {
            outbox.register(kind: kind, onConflict: policy, send: server.send)
        }
        let teller = teller
        repositories = OutboxStressScenario.tags.map { requirements in
            let repository = OutboxStressScenario.Repository(dataSource: scenario.dataSource, teller: teller)
            repository.requirements = requirements
            return repository
        }
        screens = zip(repositories, OutboxStressScenario.tags).map { repository, requirements in
            Screen(requirements, repository: repository, scenario: scenario)
        }
        for screen in screens { _ = watching.insert(screen.subscription) }
    }

    /// Stops watching the outbox's changes and the screens.
    func stopWatching() {
        // The outbox's `changes` still complete for `outboxGone`: only the screens stop.
        for screen in screens { screen.subscription.dispose() }
    }

    /// Waits until `condition` (read from the outbox's public API) holds, reading it again at each
    /// change of the outbox.
    func waitForOutbox(_ condition: () -> Bool) -> Bool {
        changesSeen.wait(timeout: OutboxStressScenario.patience, until: condition)
    }
}

/// One repository's observer: checks every state it shows, and keeps the last.
private final class Screen: Sendable {
    let requirements: TestRequirements
    let subscription = SingleAssignmentDisposable()
    private let latest = Locked<CacheState<[String]>?>(nil)
    private let statesSeen = Wakeups()

    init(_ requirements: TestRequirements, repository: OutboxStressScenario.Repository, scenario: OutboxStressScenario)
    {
        self.requirements = requirements
        let latest = latest
        let statesSeen = statesSeen
        subscription.setDisposable(
            repository.observe().subscribe(onNext: { state in
                if let problem = Screen.problem(state, tag: requirements.tag) { scenario.report(problem) }
                latest.withLock { $0 = state }
                statesSeen.wake()
            })
        )
    }

    var last: CacheState<[String]>? {
        latest.value
    }

    /// Waits until the last state meets `condition`, reading it again at each new state.
    func waitFor(_ condition: (CacheState<[String]>) -> Bool) -> Bool {
        statesSeen.wait(timeout: OutboxStressScenario.patience) { last.map(condition) ?? false }
    }

    /// A state on a cache must show every write it says is pending.
    private static func problem(_ state: CacheState<[String]>, tag: String) -> String? {
        guard state.cacheExists, !state.isLoadingCache, state.cacheReadError == nil else { return nil }
        let shown = state.cache ?? []
        let missing = OutboxStressScenario.texts(state.pendingWrites).filter { !shown.contains($0) }
        guard !missing.isEmpty else { return nil }
        return "\(tag) showed \(shown) without its pending \(missing)"
    }
}

/// Wakes a waiting thread each time what it waits for may have changed.
private final class Wakeups: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func wake() {
        semaphore.signal()
    }

    /// Waits until `condition` holds, reading it now and after each wake-up; `false` when it
    /// still did not after `timeout` seconds.
    func wait(timeout: TimeInterval, until condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while !condition() {
            if semaphore.wait(timeout: deadline) == .timedOut { return condition() }
        }
        return true
    }
}

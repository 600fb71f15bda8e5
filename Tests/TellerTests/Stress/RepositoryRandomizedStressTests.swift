import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Seeded random scenarios through `TellerRepository`'s public API on real queues: three threads
/// set requirements, observe, refresh, leave refreshes, release repositories, clear and
/// invalidate tags and send refresh triggers, under a retry policy with millisecond delays in
/// half the scenarios, while the data source fails, errors, never answers (the Teller's fetch timeout is
/// 50 ms), answers twice or after disposal, and throws from some saves. Then, at rest:
/// - every refresh `Single` was answered exactly once, unless it was disposed first;
/// - the store and the observers agree: the last state every observer of a live repository saw
///   shows the requirements it has now, the data source's stored cache and its fetch time, and
///   no fetch.
///
/// "At rest" is waited for, never slept for: every refresh answer, then every piece of work
/// scheduled on the Teller's two (counting) schedulers, the UI scheduler's deliveries included.
/// Threads interleave as they will, so a seed replays the same operations, not the same timing:
/// `TELLER_SEED=<seed>` runs one scenario, `TELLER_SEED_COUNT=<n>` more of them.
@Suite struct RepositoryRandomizedStressTests {
    static let scenarios = 400
    static let threads = 3
    static let operationsPerThread = 12

    @Test func randomScenariosOnRealQueuesEndWithTheStoreAndTheObserversAgreeing() {
        let seeds = RandomizedTestSeeds.seeds(ciCount: Self.scenarios, first: 1_000)
        let answeredTwice = Locked(0)
        // Only this test's data source answers with "again": the capture takes the second answers
        // it sends on purpose, and nothing of another test.
        let again = #""again"]"#
        let secondAnswers = MisuseCapture(accepting: { $0.hasPrefix("Single.create sent") && $0.contains(again) })
        // Scenarios run side by side, so their fetch timeouts overlap.
        let failures = secondAnswers.during {
            runScenarios(seeds: seeds, lanes: 8) { seed in
                let scenario = StressScenario(seed: seed)
                let problems = scenario.run()
                answeredTwice.withLock { $0 += scenario.dataSource.answeredTwiceCount }
                return problems
            }
        }
        #expect(secondAnswers.messages.count == (MisuseCapture.isReporting ? answeredTwice.value : 0))
        for failure in failures.prefix(3) { Issue.record("\(failure.report)") }
        #expect(failures.isEmpty, "\(failures.count) scenarios ended wrong (the run stops at 3)")
    }
}

private let octocat = TestRequirements(username: "octocat")
private let hubot = TestRequirements(username: "hubot")

/// One scenario: a Teller on real queues, two repository slots over one data source.
private final class StressScenario: @unchecked Sendable {
    // @unchecked: every mutable property is in a `Locked`.
    typealias Repository = TellerRepository<MisbehavingDataSource>

    struct Slot {
        let id: Int
        let repository: Repository
    }

    /// How long to wait for something that takes milliseconds (fetch timeouts are 50 ms), on a
    /// machine that may be busy with other tests (and ThreadSanitizer).
    static let patience = 20.0

    /// Two retries, 2 ms and 4 ms after a failure, with jitter.
    static let quickRetries: RetryPolicy =
        (try? RetryPolicy(maxRetries: 2, initialDelay: .milliseconds(2), maxDelay: .milliseconds(4), jitter: 0.5))
        ?? .standard

    let seed: UInt64
    let counter = WorkCounter()
    let metadata = InMemoryFetchMetadataStore()
    let teller: Teller
    let dataSource: MisbehavingDataSource
    let slots: Locked<[Slot?]>
    let observations = Locked<[Observation]>([])
    let calls = Locked<[RefreshCall]>([])
    let answered = DispatchGroup()
    let nextSlotID = Locked(0)

    init(seed: UInt64) {
        self.seed = seed
        var random = SplitMix64(seed: seed)
        let background = CountingScheduler(ConcurrentDispatchQueueScheduler(qos: .userInitiated), counter: counter)
        teller = Teller(
            metadataStore: metadata,
            uiScheduler: CountingScheduler(
                SerialDispatchQueueScheduler(internalSerialQueueName: "teller-stress.ui"),
                counter: counter
            ),
            backgroundScheduler: background,
            fetchTimeout: .milliseconds(50),
            retryPolicy: random.percent(50) ? Self.quickRetries : .never,
            appLifecycleNotifications: nil
        )
        dataSource = MisbehavingDataSource(
            seed: random.next(),
            automaticallyRefresh: random.percent(75),
            scheduler: background
        )
        for tag in [octocat.tag, hubot.tag] {
            guard let age = random.pick([nil, 60.0, 7_200.0]) else { continue }
            dataSource.write(["\(tag) from an earlier launch"], tag: tag)
            metadata.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSinceNow: -age)), forTag: tag)
        }
        slots = Locked([nil, nil])
        for index in 0..<2 {
            let slot = makeSlot()
            if random.percent(70) { slot.repository.requirements = random.pick([octocat, hubot]) }
            slots.withLock { $0[index] = slot }
        }
    }

    private func makeSlot() -> Slot {
        let id = nextSlotID.withLock { id -> Int in
            id += 1
            return id
        }
        return Slot(id: id, repository: Repository(dataSource: dataSource, teller: teller))
    }

    /// Runs the threads, waits for rest, checks, and returns what went wrong.
    func run() -> [String] {
        var problems: [String] = []
        let threadsDone = DispatchGroup()
        for thread in 0..<RepositoryRandomizedStressTests.threads {
            let threadSeed = seed &* 31 &+ UInt64(thread)
            threadsDone.enter()
            Thread { [self] in
                var random = SplitMix64(seed: threadSeed)
                for _ in 0..<RepositoryRandomizedStressTests.operationsPerThread {
                    operate(&random)
                }
                threadsDone.leave()
            }
            .start()
        }
        if threadsDone.wait(timeout: .now() + Self.patience) != .success {
            return ["the threads did not finish their operations in \(Self.patience) s"]
        }
        if answered.wait(timeout: .now() + Self.patience) != .success {
            problems.append("some refresh was not answered in \(Self.patience) s")
        }
        if !counter.waitUntilIdle(timeout: Self.patience) {
            problems.append("the schedulers did not come to rest in \(Self.patience) s (a refresh storm?)")
        }
        problems += checkAtRest()
        // Tear down: release every repository and let their last work end.
        for observation in observations.value { observation.disposable.dispose() }
        slots.withLock { $0 = [nil, nil] }
        if !counter.waitUntilIdle(timeout: Self.patience) {
            problems.append("the schedulers did not come to rest after the repositories were released")
        }
        return problems
    }

    // MARK: Operations

    private enum Operation {
        case setRequirements, observe, stopObserving, refresh, refreshIfNoCache, leaveRefresh, release, clear
        case clearTag, invalidate, invalidateAll, appBecameActive, networkCameBack
    }

    private func operate(_ random: inout SplitMix64) {
        let index = random.below(2)
        guard let slot = slots.value[index] else { return }
        let repository = slot.repository
        let operation: Operation = random.pick(
            [
                .setRequirements, .observe, .stopObserving, .refresh, .refreshIfNoCache, .leaveRefresh, .release,
                .clear,
                .clearTag, .invalidate, .invalidateAll, .appBecameActive, .networkCameBack,
            ],
            weights: [6, 5, 2, 7, 3, 3, 2, 1, 1, 2, 1, 1, 1]
        )
        switch operation {
        case .setRequirements:
            repository.requirements = random.percent(15) ? nil : random.pick([octocat, hubot])
        case .observe:
            let observation = Observation(slot: slot.id)
            observation.disposable.setDisposable(
                repository.observe().subscribe(
                    onNext: { state in observation.record(state) },
                    onCompleted: { observation.record(completed: true) }
                )
            )
            observations.withLock { $0.append(observation) }
        case .stopObserving:
            let mine = observations.value.filter { $0.slot == slot.id && !$0.isStopped }
            if !mine.isEmpty { random.pick(mine).stop() }
        case .refresh:
            let force = random.percent(50)
            subscribe(try? repository.refresh(force: force), leaveAtOnce: random.percent(15))
        case .refreshIfNoCache:
            subscribe(try? repository.refreshIfNoCache(), leaveAtOnce: random.percent(15))
        case .leaveRefresh:
            let waiting = calls.value.filter { $0.isWaiting }
            if !waiting.isEmpty { random.pick(waiting).leave() }
        case .release:
            let replacement = random.percent(70) ? makeSlot() : nil
            let released = slots.withLock { slots -> Slot? in
                defer { slots[index] = replacement }
                return slots[index]
            }
            // The last reference goes outside the lock (its deinit shuts the repository down).
            _ = released
        case .clear:
            teller.clear()
        case .clearTag:
            teller.clear(tag: random.pick([octocat, hubot]).tag)
        case .invalidate:
            teller.invalidate(tag: random.pick([octocat, hubot]).tag)
        case .invalidateAll:
            teller.invalidateAll()
        case .appBecameActive:
            teller.appDidBecomeActive()
        case .networkCameBack:
            teller.networkDidBecomeAvailable()
        }
    }

    private func subscribe(_ single: Single<RefreshResult>?, leaveAtOnce: Bool) {
        guard let single else { return }
        let call = RefreshCall(answered)
        calls.withLock { $0.append(call) }
        call.disposable.setDisposable(
            single.subscribe(
                onSuccess: { result in call.answer(result) },
                onFailure: { error in call.answer(.failedError(error: error), failed: true) }
            )
        )
        if leaveAtOnce { call.leave() }
    }

    // MARK: At rest

    private func checkAtRest() -> [String] {
        var problems = calls.value.compactMap(\.problem)
        for slot in slots.value.compactMap({ $0 }) {
            guard let requirements = slot.repository.requirements else { continue }
            let lastFetched = metadata.metadata(forTag: requirements.tag)?.lastFetched
            let stored = dataSource.cache(tag: requirements.tag).flatMap { $0.isEmpty ? nil : $0 }
            for observation in observations.value where observation.slot == slot.id && !observation.isStopped {
                guard let state = observation.last else {
                    problems.append("an observer of repository \(slot.id) (\(requirements.username)) saw nothing")
                    continue
                }
                let shown = "repository \(slot.id) shows \(StateSummary(state))"
                if observation.isCompleted {
                    problems.append("an observer of live repository \(slot.id) was completed")
                }
                if state.requirements?.tag != requirements.tag {
                    problems.append("\(shown), of \(state.requirements?.tag ?? "nil"), for \(requirements.tag)")
                }
                if state.isRefreshing {
                    problems.append("at rest \(shown)")
                }
                if state.cacheAge != lastFetched {
                    problems.append(
                        "\(shown), but \(requirements.tag) was fetched at \(String(describing: lastFetched))"
                    )
                } else if lastFetched != nil,
                    state.isLoadingCache || state.cacheReadError != nil || state.cache != stored
                {
                    problems.append("\(shown), but the store holds \(String(describing: stored))")
                }
            }
        }
        return problems
    }
}

/// One `observe()` subscription and the last state it saw.
private final class Observation: @unchecked Sendable {
    // @unchecked: the mutable state is in `state`.
    let slot: Int
    let disposable = SingleAssignmentDisposable()
    private let state = Locked<(last: CacheState<[String]>?, completed: Bool, stopped: Bool)>((nil, false, false))

    init(slot: Int) {
        self.slot = slot
    }

    var last: CacheState<[String]>? { state.value.last }
    var isCompleted: Bool { state.value.completed }
    var isStopped: Bool { state.value.stopped }

    func record(_ state: CacheState<[String]>) {
        self.state.withLock { $0.last = state }
    }

    func record(completed: Bool) {
        state.withLock { $0.completed = completed }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        disposable.dispose()
    }
}

/// One subscribed refresh `Single`: in `answered` until it is answered or left.
private final class RefreshCall: @unchecked Sendable {
    // @unchecked: the mutable state is in `state`.
    let disposable = SingleAssignmentDisposable()
    private let group: DispatchGroup
    private let state = Locked<(answers: [RefreshResult], failed: Bool, left: Bool, done: Bool)>(
        ([], false, false, false)
    )

    init(_ group: DispatchGroup) {
        self.group = group
        group.enter()
    }

    var isWaiting: Bool { !state.value.done }

    func answer(_ result: RefreshResult, failed: Bool = false) {
        let isFirst = state.withLock { state -> Bool in
            state.answers.append(result)
            state.failed = state.failed || failed
            defer { state.done = true }
            return !state.done
        }
        if isFirst { group.leave() }
    }

    /// The caller disposes its `Single`.
    func leave() {
        let isFirst = state.withLock { state -> Bool in
            state.left = true
            defer { state.done = true }
            return !state.done
        }
        disposable.dispose()
        if isFirst { group.leave() }
    }

    var problem: String? {
        let state = state.value
        if state.failed { return "a refresh Single failed: \(state.answers)" }
        if state.answers.count > 1 { return "a refresh was answered \(state.answers.count) times: \(state.answers)" }
        if state.answers.isEmpty, !state.left { return "a refresh was never answered" }
        return nil
    }
}

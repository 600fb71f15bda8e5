import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// `TellerPagingRepository` through its public API on real queues, with a misbehaving data
/// source (late, failing, erroring, never answering, answering after disposal or twice; throwing
/// saves). Each seed is one scenario: four threads make random calls (next page, refreshes kept
/// or left, requirements changes, observers coming and going, invalidations, the app becoming
/// active, a release; half the scenarios under a retry policy), then the test waits
/// until every kept refresh is answered and no work is scheduled anywhere, and checks the rest:
/// the store holds pages 1…n each once, what observers see agrees with the store and the
/// metadata, every refresh was answered at most once (the kept ones exactly once), there was no
/// refetch storm, and the data source's writing members never ran at the same time.
///
/// A seed replays the scenario's calls and the data source's answers (`TELLER_SEED=<n>`), not
/// the threads' interleaving. Runs under ThreadSanitizer in CI.
@Suite struct PagingStressTests {
    private typealias Repository = TellerPagingRepository<MisbehavingPagedDataSource>
    private typealias State = CacheState<PagedCache<[Int]>>

    private static let users = [TestRequirements(username: "octocat"), TestRequirements(username: "hubot")]
    private static let threads = 4
    private static let callsPerThread = 12
    /// Generous: time to wait for answers and for rest, never reached when all is well.
    private static let patience: TimeInterval = 30

    /// What one scenario found: `problems` break the invariants; `overlappingWrites` names the
    /// writing members that ran at the same time.
    private struct Outcome {
        var problems: [String] = []
        var overlappingWrites: Set<String> = []
        /// Fetches that answered twice on purpose, each reported as misuse by TellerRx.
        var answeredTwice = 0
    }

    /// Everything the calling threads share.
    private final class Calls: @unchecked Sendable {
        // @unchecked: every mutable property is a `Locked`, `waiting` is thread-safe.
        let repository: Locked<Repository?>
        let waiting = DispatchGroup()
        /// Answers per refresh call; the kept calls must get exactly one.
        let answers = Locked<[Int: Int]>([:])
        let kept = Locked<Set<Int>>([])
        let nextCall = Locked(0)
        /// Refreshes and observers that may leave (be disposed) at any time.
        let leavable = Locked<[any Disposable]>([])

        init(_ repository: Repository) {
            self.repository = Locked(repository)
        }

        /// Drops the repository; it is deallocated when no call holds it any more.
        func release() {
            let released = repository.withLock { repository -> Repository? in
                defer { repository = nil }
                return repository
            }
            withExtendedLifetime(released) {}
        }
    }

    /// Two retries, 1 ms and 2 ms after a failure.
    private static let quickRetries: RetryPolicy =
        (try? RetryPolicy(maxRetries: 2, initialDelay: .milliseconds(1), maxDelay: .milliseconds(2))) ?? .standard

    private static func play(seed: UInt64) -> Outcome {
        var random = SplitMix64(seed: seed)
        let work = WorkCounter()
        let ui = CountingScheduler(
            SerialDispatchQueueScheduler(internalSerialQueueName: "paging-stress.ui"),
            counter: work
        )
        let background = CountingScheduler(ConcurrentDispatchQueueScheduler(qos: .userInitiated), counter: work)
        let metadata = InMemoryFetchMetadataStore()
        let teller = Teller(
            metadataStore: metadata,
            uiScheduler: ui,
            backgroundScheduler: background,
            fetchTimeout: .milliseconds(20),
            retryPolicy: random.percent(50) ? quickRetries : .never,
            appLifecycleNotifications: nil
        )
        let store = PageStore()
        let serverPages = random.int(1...4)
        for user in users where random.percent(40) {
            // Cached by an earlier launch, some pages deep, fresh or too old.
            store.write(Array(1...random.int(1...serverPages)), for: user.tag)
            let age = TimeInterval(random.int(0...7_200))
            let paging = PagingMetadata(areMorePages: 1 < serverPages)
            metadata.setMetadata(FetchMetadata(lastFetched: Date() - age, paging: paging), forTag: user.tag)
        }
        let dataSource = MisbehavingPagedDataSource(
            store: store,
            serverPages: serverPages,
            automaticallyRefresh: random.percent(75),
            saveFailurePercent: random.pick([0, 10, 30]),
            network: background,
            seed: seed
        )
        let calls = Calls(
            Repository(dataSource: dataSource, firstPageRequirements: PageNumber(number: 1), teller: teller)
        )
        let states = Locked<[State]>([])
        let completed = DispatchSemaphore(value: 0)
        let observation = calls.repository.value?.observe()
            .subscribe(
                onNext: { state in states.withLock { $0.append(state) } },
                onCompleted: { completed.signal() }
            )
        calls.repository.value?.requirements = users[0]
        let releasesWhileCalled = random.percent(20)

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SplitMix64(seed: seed &* 1_000 &+ UInt64(thread))
            for call in 0..<callsPerThread {
                if releasesWhileCalled, thread == 0, call == callsPerThread / 2 {
                    calls.release()
                }
                guard let repository = calls.repository.value else { return }
                makeRandomCall(repository, teller: teller, calls: calls, random: &random)
            }
        }

        var outcome = Outcome()
        func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
            if !condition { outcome.problems.append(problem()) }
        }
        expect(calls.waiting.wait(timeout: .now() + patience) == .success, "a kept refresh was never answered")
        for leaving in calls.leavable.value { leaving.dispose() }
        expect(work.waitUntilIdle(timeout: patience), "never came to rest")
        // The UI queue delivered everything before this marker.
        let marker = DispatchSemaphore(value: 0)
        _ = ui.schedule(()) { _ in
            marker.signal()
            return Disposables.create()
        }
        expect(marker.wait(timeout: .now() + patience) == .success, "the UI queue never ran the marker")
        expect(work.waitUntilIdle(timeout: patience), "never came to rest after the marker")

        // At rest.
        if let repository = calls.repository.value {
            checkShown(states.value.last, repository: repository, store: store, metadata: metadata, expect: expect)
        }
        calls.release()
        expect(completed.wait(timeout: .now() + patience) == .success, "observers did not complete on release")
        expect(work.waitUntilIdle(timeout: patience), "never came to rest after the release")
        observation?.dispose()
        for (tag, pages) in store.all where pages != pages.indices.map({ $0 + 1 }) {
            outcome.problems.append("the store of \(tag) holds pages \(pages), not 1…n each once")
        }
        let answers = calls.answers.value
        for call in calls.kept.value where answers[call] != 1 {
            outcome.problems.append("kept refresh \(call) answered \(answers[call] ?? 0) times")
        }
        for (call, count) in answers where count > 1 {
            outcome.problems.append("refresh \(call) answered \(count) times")
        }
        // A storm fetches without end; every call here may cost a few fetches at most.
        let bound = 10 + 4 * threads * callsPerThread
        expect(dataSource.fetchCount <= bound, "\(dataSource.fetchCount) fetches: a refetch storm?")
        outcome.overlappingWrites = dataSource.overlappingWrites
        outcome.answeredTwice = dataSource.answeredTwiceCount
        return outcome
    }

    private static func makeRandomCall(
        _ repository: Repository,
        teller: Teller,
        calls: Calls,
        random: inout SplitMix64
    ) {
        enum Call {
            case nextPage, refresh, refreshUnforced, refreshIfNoCache, leave, requirements, observe, read
            case invalidate, appBecameActive
        }
        let call = random.pick(weighted: [
            (30, Call.nextPage), (12, .refresh), (6, .refreshUnforced), (5, .refreshIfNoCache), (8, .leave),
            (10, .requirements), (5, .observe), (4, .read), (3, .invalidate), (2, .appBecameActive),
        ])
        switch call {
        case .invalidate:
            teller.invalidate(tag: random.pick(users).tag)
        case .appBecameActive:
            teller.appDidBecomeActive()
        case .nextPage:
            repository.goToNextPage()
        case .refresh, .refreshUnforced, .refreshIfNoCache:
            let single =
                call == .refreshIfNoCache
                ? try? repository.refreshIfNoCache() : try? repository.refresh(force: call == .refresh)
            guard let single else { return }
            let id = calls.nextCall.withLock { id -> Int in
                defer { id += 1 }
                return id
            }
            let keeps = random.percent(70)
            if keeps {
                calls.kept.withLock { _ = $0.insert(id) }
                calls.waiting.enter()
            }
            let subscription = single.subscribe(onSuccess: { _ in
                let count = calls.answers.withLock { answers -> Int in
                    answers[id, default: 0] += 1
                    return answers[id, default: 0]
                }
                if keeps, count == 1 { calls.waiting.leave() }
            })
            if !keeps { calls.leavable.withLock { $0.append(subscription) } }
        case .leave:
            let leaving = calls.leavable.withLock { leavable -> (any Disposable)? in
                leavable.isEmpty ? nil : leavable.remove(at: Int.random(in: 0..<leavable.count, using: &random))
            }
            leaving?.dispose()
        case .requirements:
            repository.requirements = random.pick([users[0], users[1], nil])
        case .observe:
            let subscription = repository.observe().subscribe(onNext: { _ in })
            calls.leavable.withLock { $0.append(subscription) }
        case .read:
            _ = repository.pagingRequirements
            _ = repository.requirements
        }
    }

    /// What the last state observers got says about the store and the metadata.
    private static func checkShown(
        _ latest: State?,
        repository: Repository,
        store: PageStore,
        metadata: InMemoryFetchMetadataStore,
        expect: (Bool, @autoclosure () -> String) -> Void
    ) {
        // After `requirements = nil` observers get nothing more: there is nothing to compare.
        guard let requirements = repository.requirements else { return }
        guard let latest else { return expect(false, "no state shown for \(requirements.username)") }
        expect(latest.requirements as? TestRequirements == requirements, "the last state is for other requirements")
        expect(
            !latest.isRefreshing && !latest.isLoadingCache && latest.cache?.isLoadingNextPage != true,
            "at rest, still shows work: \(latest)"
        )
        let stored = metadata.metadata(forTag: requirements.tag)
        expect(
            latest.cacheAge == stored?.lastFetched,
            "shows \(latest); the metadata says \(String(describing: stored))"
        )
        guard latest.cacheExists else { return }
        let pages = store.pages(of: requirements.tag)
        let truth = !pages.isEmpty && pages.count < (repository.dataSource.serverPages)
        if let shown = latest.cache {
            expect(
                shown.cache == pages && shown.areMorePages == truth,
                "observers see \(shown.cache), more: \(shown.areMorePages); the store holds \(pages), more: \(truth)"
            )
        } else {
            expect(pages.isEmpty, "observers see an empty cache; the store holds \(pages)")
        }
        expect(
            repository.pagingRequirements.number == max(pages.count, 1),
            "pages from \(repository.pagingRequirements) while the store holds \(pages)"
        )
    }

    @Test func randomCallsFromSeveralThreadsOverAMisbehavingDataSourceEndWithTheStoreAndObserversAgreeing() {
        var failures: [(seed: UInt64, problems: [String])] = []
        var overlapping: [UInt64] = []
        var overlaps: Set<String> = []
        var answeredTwice = 0
        // Only this data source's pages are `PagedFetchResponse<Array<Int>, ()>`: the capture
        // takes the second answers it sends on purpose, and nothing of another test.
        let page = "PagedFetchResponse<Swift.Array<Swift.Int>, ()>"
        let secondAnswers = MisuseCapture(accepting: { $0.hasPrefix("Single.create sent") && $0.contains(page) })
        secondAnswers.during {
            for seed in RandomizedTestSeeds.seeds(ciCount: 500) {
                let outcome = Self.play(seed: seed)
                if !outcome.problems.isEmpty { failures.append((seed, outcome.problems)) }
                if !outcome.overlappingWrites.isEmpty { overlapping.append(seed) }
                overlaps.formUnion(outcome.overlappingWrites)
                answeredTwice += outcome.answeredTwice
            }
        }
        #expect(secondAnswers.messages.count == (MisuseCapture.isReporting ? answeredTwice : 0))
        #expect(
            failures.isEmpty,
            """
            \(failures.count) scenarios ended wrong (replay one with TELLER_SEED=<seed>):
            \(failures.prefix(10).map { "seed \($0.seed): \($0.problems.joined(separator: "; "))" }.joined(separator: "\n"))
            """
        )
        // The repository's writing members run in one serial lane (PagingEffects).
        #expect(
            overlapping.isEmpty,
            "writes ran at the same time in \(overlapping.count) scenarios (seeds \(overlapping.prefix(10))): \(overlaps.sorted())"
        )
    }
}

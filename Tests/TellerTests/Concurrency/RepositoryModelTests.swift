import Foundation
import Observation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `RepositoryModel`: a repository's state as an `@Observable` object, checked through
/// Observation's change tracking on virtual time; releasing it stops observing.
@Suite struct RepositoryModelTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    @Test func observationReportsTheStatesOnTheThreadThatAdvancesVirtualTime() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { [env] _ in env.fetch(["a"], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        repository.requirements = octocat
        let model = RepositoryModel(repository: repository)
        // States are delivered on the UI scheduler: nothing yet.
        #expect(model.state == nil)

        let timeline = observedTimeline(of: model, on: env.scheduler, until: 30) { StateSummary($0).text }

        // Sampled once per tick: the first fetch's end and the cache it saved come in one tick (a
        // store's current value is read in the turn that subscribes it), so the tick shows the
        // second.
        #expect(timeline == ["1: noCache, firstFetch", "13: cache [\"a\"] age 12"])
        #expect(model.state?.cache == ["a"])
    }

    @Test(.timeLimit(.minutes(1)))
    func withTheDefaultUISchedulerObservationReportsChangesOnTheMainQueue() async {
        // The UI scheduler is left at its default, `MainScheduler.instance`.
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        )
        let repository = TellerRepository(dataSource: InMemoryDataSource(automaticallyRefresh: false), teller: teller)
        let model = RepositoryModel(repository: repository)

        // No requirements, no state yet: track first, then let a state come.
        // (Swift Testing on Linux drains the main queue on a thread other than the process's main
        // thread, which `MainScheduler.isMainThread` recognises.)
        let changedOnMainQueue = await withCheckedContinuation { continuation in
            withObservationTracking {
                _ = model.state
            } onChange: {
                continuation.resume(returning: MainScheduler.isMainThread)
            }
            repository.requirements = octocat
        }

        #expect(changedOnMainQueue)
        // `onChange` runs as the change begins, on the main queue: the state is stored by the
        // time the main queue runs its next job.
        let state = await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume(returning: model.state) }
        }
        #expect(state?.cacheExists == false)
    }

    @Test func aPagingModelShowsTheNextPageItsRepositoryLoads() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let model = RepositoryModel(
            repository: TellerPagingRepository(
                dataSource: dataSource,
                firstPageRequirements: PageNumber(number: 1),
                teller: env.teller
            )
        )
        model.repository.requirements = octocat
        env.scheduler.scheduleAt(50) { model.repository.goToNextPage() }

        let timeline = observedTimeline(of: model, on: env.scheduler, until: 100) { state in
            StateSummary(state.convert { $0?.cache }).text + (state.cache?.isLoadingNextPage == true ? ", loading" : "")
        }

        #expect(timeline.last?.hasSuffix("cache [\"a\", \"b\", \"c\"] age 12") == true)
        #expect(timeline.contains { $0.hasSuffix("cache [\"a\", \"b\"] age 12, loading") })
        #expect(model.state?.cache?.areMorePages == false)
    }

    @Test func releasingTheModelStopsObservingItsRepository() {
        let scheduler = TestScheduler(initialClock: 0)
        let observed = scheduler.createHotObservable([
            .next(10, CacheState<[String]>.testing.noCache(requirements: octocat) { $0.fetchingFirstTime() }),
            .next(20, CacheState<[String]>.testing.noCache(requirements: octocat)),
        ])
        let repository = TellerRepositoryMock(dataSource: InMemoryDataSource())
        repository.observeClosure = { observed.asObservable() }
        var model: RepositoryModel<TellerRepositoryMock<InMemoryDataSource>>? = RepositoryModel(repository: repository)
        weak let released = model

        scheduler.advanceTo(15)
        #expect(model?.state?.isFirstFetch == true)
        model = nil
        scheduler.advanceTo(30)

        #expect(released == nil)
        #expect(observed.subscriptions == [Subscription(0, 15)])
    }

    @Test func releasingAModelThatOwnsItsRepositoryStopsObservingTheCache() {
        let dataSource = WatchedDataSource()
        // Fetched before, so the repository observes the cache as soon as it has requirements.
        env.markFetched(octocat, at: 0)
        var model: RepositoryModel<TellerRepository<WatchedDataSource>>? = RepositoryModel(
            repository: TellerRepository(dataSource: dataSource, teller: env.teller)
        )
        weak let repository = model?.repository
        model?.repository.requirements = octocat
        env.scheduler.advanceTo(5)
        #expect(dataSource.cacheObservations.value == 1)

        model = nil
        env.scheduler.advanceTo(10)

        #expect(repository == nil)
        #expect(dataSource.cacheObservations.value == 0)
    }

    @Test func refreshesGoToTheRepositoryAndAnswerItsResults() async throws {
        let repository = TellerRepositoryMock(dataSource: InMemoryDataSource())
        repository.requirements = octocat
        repository.refreshClosure = { force in .just(force ? .successful : .skipped(reason: .dataNotTooOld)) }
        repository.refreshIfNoCacheClosure = { .just(.successful) }
        let model = RepositoryModel(repository: repository)

        #expect(try await model.refresh(force: true) == .successful)
        #expect(try await model.refresh() == .skipped(reason: .dataNotTooOld))
        #expect(try await model.refreshIfNoCache() == .successful)
        #expect(repository.refreshInvocations == [true, false])
        #expect(repository.refreshIfNoCacheCallsCount == 1)
    }

    @Test func aRefreshWithoutRequirementsThrowsAndACancelledOneIsSkipped() async throws {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let model = RepositoryModel(repository: TellerRepository(dataSource: dataSource, teller: env.teller))
        await #expect(throws: TellerError.objectPropertiesNotSet(["requirements"])) {
            try await model.refresh(force: true)
        }

        model.repository.requirements = octocat
        let refresh = Task { try await model.refresh(force: true) }
        refresh.cancel()

        #expect(try await refresh.value == .skipped(reason: .cancelled))
        env.scheduler.advanceTo(100)
        #expect(dataSource.calls.fetches == 0)
    }
}

/// Advances `scheduler` one tick at a time up to `end`, tracking `model.state` with
/// `withObservationTracking` during each tick: after a tick in which Observation reported a
/// change, records `"tick: summary"` of the state at the end of that tick.
private func observedTimeline<Repository>(
    of model: RepositoryModel<Repository>,
    on scheduler: TestScheduler,
    until end: Int,
    summary: (CacheState<Repository.Cache>) -> String
) -> [String] {
    var timeline: [String] = []
    while scheduler.clock < end {
        let changed = Locked(false)
        withObservationTracking {
            _ = model.state
        } onChange: {
            changed.withLock { $0 = true }
        }
        let tick = scheduler.clock + 1
        scheduler.advanceTo(tick)
        if changed.value {
            timeline.append("\(tick): " + (model.state.map(summary) ?? "nil"))
        }
    }
    return timeline
}

/// An in-memory data source that counts its live cache observations.
private final class WatchedDataSource: RepositoryDataSource, @unchecked Sendable {
    // @unchecked: `inner` and `cacheObservations` are thread-safe.
    typealias Cache = [String]
    typealias Requirements = TestRequirements
    typealias FetchResult = [String]
    typealias FetchError = any Error

    let inner = InMemoryDataSource(automaticallyRefresh: false)
    let cacheObservations = Locked(0)
    let maxAgeOfCache = Period(unit: 1, component: .hour)
    let automaticallyRefresh = false

    func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<[String], any Error>> {
        inner.fetchFreshCache(requirements: requirements)
    }

    func saveCache(_ cache: [String], requirements: TestRequirements) throws {
        try inner.saveCache(cache, requirements: requirements)
    }

    func observeCache(requirements: TestRequirements) -> Observable<[String]> {
        let count = cacheObservations
        return inner.observeCache(requirements: requirements)
            .do(onSubscribe: { count.withLock { $0 += 1 } }, onDispose: { count.withLock { $0 -= 1 } })
    }

    func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
        cache.isEmpty
    }
}

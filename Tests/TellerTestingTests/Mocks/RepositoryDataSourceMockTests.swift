import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@Suite struct RepositoryDataSourceMockTests {
    typealias Mock = RepositoryDataSourceMock<[String], TestRequirements, [String], Error>
    let octocat = TestRequirements(username: "octocat")

    @Test func unsetClosuresGiveNeutralAnswersInsteadOfCrashing() throws {
        let mock = Mock()
        #expect(mock.maxAgeOfCache == Period(unit: 1, component: .hour))
        #expect(mock.automaticallyRefresh)
        let response = try mock.fetchFreshCache(requirements: octocat).toBlocking(timeout: 5).first()
        guard case .failure(let error) = response else {
            Issue.record("expected a failed fetch, got \(String(describing: response))")
            return
        }
        #expect(error as? MockClosureNotSetError == MockClosureNotSetError(closureName: "fetchFreshCacheClosure"))
        #expect("\(error)".contains("fetchFreshCacheClosure"))
        #expect(throws: Never.self) { try mock.saveCache(["a"], requirements: octocat) }
        #expect(try mock.observeCache(requirements: octocat).toBlocking(timeout: 5).toArray().isEmpty)
        #expect(mock.isCacheEmpty([], requirements: octocat))
        #expect(!mock.isCacheEmpty(["a"], requirements: octocat))
    }

    @Test func isCacheEmptyDefaultTreatsOnlyEmptyCollectionsAsEmpty() {
        #expect(
            RepositoryDataSourceMock<String, TestRequirements, String, Error>().isCacheEmpty("", requirements: octocat)
        )
        #expect(
            !RepositoryDataSourceMock<String, TestRequirements, String, Error>().isCacheEmpty(
                "x",
                requirements: octocat
            )
        )
        #expect(!RepositoryDataSourceMock<Int, TestRequirements, Int, Error>().isCacheEmpty(0, requirements: octocat))
    }

    @Test func nothingIsRecordedBeforeUse() {
        let mock = Mock()
        #expect(!mock.mockCalled)
        #expect(!mock.maxAgeOfCacheCalled && mock.maxAgeOfCacheCallsCount == 0)
        #expect(!mock.automaticallyRefreshCalled && mock.automaticallyRefreshCallsCount == 0)
        #expect(!mock.fetchFreshCacheCalled && mock.fetchFreshCacheInvocations.isEmpty)
        #expect(!mock.saveCacheCalled && mock.saveCacheInvocations.isEmpty)
        #expect(!mock.observeCacheCalled && mock.observeCacheInvocations.isEmpty)
        #expect(!mock.isCacheEmptyCalled && mock.isCacheEmptyInvocations.isEmpty)
    }

    @Test func everyMemberRecordsItsCallsAndAnswersWithItsClosure() throws {
        let mock = Mock()
        let other = TestRequirements(username: "other")
        mock.maxAgeOfCacheClosure = { Period(unit: 5, component: .hour) }
        mock.automaticallyRefreshClosure = { false }
        mock.fetchFreshCacheClosure = { requirements in .just(.success([requirements.username])) }
        mock.saveCacheClosure = { cache, _ in if cache == ["bad"] { throw TestError(1) } }
        mock.observeCacheClosure = { requirements in .just([requirements.username]) }
        mock.isCacheEmptyClosure = { _, _ in true }

        #expect(mock.maxAgeOfCache == Period(unit: 5, component: .hour))
        #expect(!mock.automaticallyRefresh)
        let response = try mock.fetchFreshCache(requirements: other).toBlocking(timeout: 5).first()
        #expect(try response?.get() == ["other"])
        try mock.saveCache(["good"], requirements: octocat)
        #expect(throws: TestError(1)) { try mock.saveCache(["bad"], requirements: other) }
        #expect(try mock.observeCache(requirements: octocat).toBlocking(timeout: 5).toArray() == [["octocat"]])
        #expect(mock.isCacheEmpty(["x"], requirements: octocat))

        #expect(mock.mockCalled)
        #expect(mock.maxAgeOfCacheCalled && mock.maxAgeOfCacheCallsCount == 1)
        #expect(mock.automaticallyRefreshCalled && mock.automaticallyRefreshCallsCount == 1)
        #expect(mock.fetchFreshCacheCalled && mock.fetchFreshCacheCallsCount == 1)
        #expect(mock.fetchFreshCacheInvocations == [other])
        #expect(mock.saveCacheCalled && mock.saveCacheCallsCount == 2)
        #expect(mock.saveCacheInvocations.map(\.cache) == [["good"], ["bad"]])
        #expect(mock.saveCacheInvocations.map(\.requirements) == [octocat, other])
        #expect(mock.observeCacheCalled && mock.observeCacheCallsCount == 1)
        #expect(mock.observeCacheInvocations == [octocat])
        #expect(mock.isCacheEmptyCalled && mock.isCacheEmptyCallsCount == 1)
        #expect(mock.isCacheEmptyInvocations.map(\.cache) == [["x"]])
    }

    @Test func aRepositoryOverTheMockFetchesSavesAndShowsTheCache() {
        let env = VirtualTeller()
        let mock = Mock()
        let saved = Locked<[String]?>(nil)
        let changes = PublishSubject<Void>()
        mock.fetchFreshCacheClosure = { _ in env.fetch(["fetched"], after: 10) }
        mock.saveCacheClosure = { cache, _ in
            saved.withLock { $0 = cache }
            changes.onNext(())
        }
        mock.observeCacheClosure = { _ in
            changes.startWith(()).map { saved.value ?? [] }
        }
        let repository = TellerRepository(dataSource: mock, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        let octocat = self.octocat
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline.first == "101: noCache, firstFetch")
        #expect(states.timeline.last == "113: cache [\"fetched\"] age 112")
        #expect(mock.fetchFreshCacheInvocations == [octocat])
        #expect(mock.saveCacheInvocations.map(\.cache) == [["fetched"]])
        #expect(mock.isCacheEmptyCalled)
    }

    @Test func aRepositoryOverAnUnscriptedMockShowsWhichClosureToSet() {
        let env = VirtualTeller()
        let repository = TellerRepository(dataSource: Mock(), teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        let octocat = self.octocat
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        let failed = CacheState<[String]>.testing.noCache(requirements: octocat) {
            $0.failedFirstFetch(error: MockClosureNotSetError(closureName: "fetchFreshCacheClosure"))
        }
        #expect(states.events.last?.value.element == failed)
    }

    @Test func callsFromManyThreadsAreAllRecorded() {
        let mock = Mock()
        let iterations = 1_000
        DispatchQueue.concurrentPerform(iterations: iterations) { index in
            let requirements = TestRequirements(username: "\(index)")
            _ = mock.maxAgeOfCache
            _ = mock.automaticallyRefresh
            _ = mock.fetchFreshCache(requirements: requirements)
            try? mock.saveCache(["\(index)"], requirements: requirements)
            _ = mock.observeCache(requirements: requirements)
            _ = mock.isCacheEmpty([], requirements: requirements)
        }
        #expect(mock.maxAgeOfCacheCallsCount == iterations)
        #expect(mock.automaticallyRefreshCallsCount == iterations)
        #expect(Set(mock.fetchFreshCacheInvocations.map(\.username)).count == iterations)
        #expect(Set(mock.saveCacheInvocations.map(\.cache)).count == iterations)
        #expect(mock.observeCacheCallsCount == iterations)
        #expect(mock.isCacheEmptyCallsCount == iterations)
    }
}

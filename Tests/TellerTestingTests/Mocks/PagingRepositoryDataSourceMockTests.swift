import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@Suite struct PagingRepositoryDataSourceMockTests {
    typealias Mock = PagingRepositoryDataSourceMock<[String], TestRequirements, PageNumber, [String], Error, String>
    let octocat = TestRequirements(username: "octocat")
    let first = PageNumber(number: 1)

    @Test func unsetClosuresGiveNeutralAnswersInsteadOfCrashing() throws {
        let mock = Mock()
        #expect(mock.maxAgeOfCache == Period(unit: 1, component: .hour))
        #expect(mock.automaticallyRefresh)
        #expect(
            mock.getNextPagePagingRequirements(currentPagingRequirements: first, nextPageRequirements: "b") == first
        )
        mock.persistOnlyFirstPage(requirements: octocat)
        mock.deleteCache(octocat)
        let response = try mock.fetchFreshCache(requirements: octocat, pagingRequirements: first)
            .toBlocking(timeout: 5).first()
        guard case .failure(let error) = response else {
            Issue.record("expected a failed fetch, got \(String(describing: response))")
            return
        }
        #expect(error as? MockClosureNotSetError == MockClosureNotSetError(closureName: "fetchFreshCacheClosure"))
        #expect(throws: Never.self) { try mock.saveCache(["a"], requirements: octocat, pagingRequirements: first) }
        #expect(
            try mock.observeCache(requirements: octocat, pagingRequirements: first).toBlocking(timeout: 5).toArray()
                .isEmpty
        )
        #expect(mock.isCacheEmpty([], requirements: octocat, pagingRequirements: first))
        #expect(!mock.isCacheEmpty(["a"], requirements: octocat, pagingRequirements: first))
    }

    @Test func nothingIsRecordedBeforeUse() {
        let mock = Mock()
        #expect(!mock.mockCalled)
        #expect(!mock.maxAgeOfCacheCalled && mock.maxAgeOfCacheCallsCount == 0)
        #expect(!mock.automaticallyRefreshCalled && mock.automaticallyRefreshCallsCount == 0)
        #expect(
            !mock.getNextPagePagingRequirementsCalled && mock.getNextPagePagingRequirementsCallsCount == 0
                && mock.getNextPagePagingRequirementsInvocations.isEmpty
        )
        #expect(!mock.persistOnlyFirstPageCalled && mock.persistOnlyFirstPageInvocations.isEmpty)
        #expect(!mock.deleteCacheCalled && mock.deleteCacheInvocations.isEmpty)
        #expect(!mock.fetchFreshCacheCalled && mock.fetchFreshCacheInvocations.isEmpty)
        #expect(!mock.saveCacheCalled && mock.saveCacheInvocations.isEmpty)
        #expect(!mock.observeCacheCalled && mock.observeCacheInvocations.isEmpty)
        #expect(!mock.isCacheEmptyCalled && mock.isCacheEmptyInvocations.isEmpty)
    }

    @Test func everyMemberRecordsItsCallsAndAnswersWithItsClosure() throws {
        let mock = Mock()
        let other = TestRequirements(username: "other")
        let second = PageNumber(number: 2)
        let trimmed = Locked<[String]>([])
        let deleted = Locked<[String]>([])
        mock.maxAgeOfCacheClosure = { Period(unit: 5, component: .hour) }
        mock.automaticallyRefreshClosure = { false }
        mock.getNextPagePagingRequirementsClosure = { current, _ in PageNumber(number: current.number + 1) }
        mock.persistOnlyFirstPageClosure = { requirements in trimmed.withLock { $0.append(requirements.username) } }
        mock.deleteCacheClosure = { requirements in deleted.withLock { $0.append(requirements.username) } }
        mock.fetchFreshCacheClosure = { requirements, page in
            .just(
                .success(
                    PagedFetchResponse(
                        areMorePages: page.number < 3,
                        nextPageRequirements: "\(page.number)",
                        fetchResponse: [requirements.username]
                    )
                )
            )
        }
        mock.saveCacheClosure = { cache, _, _ in if cache == ["bad"] { throw TestError(1) } }
        mock.observeCacheClosure = { requirements, page in .just(["\(requirements.username) \(page.number)"]) }
        mock.isCacheEmptyClosure = { _, _, _ in true }

        #expect(mock.maxAgeOfCache == Period(unit: 5, component: .hour))
        #expect(!mock.automaticallyRefresh)
        #expect(
            mock.getNextPagePagingRequirements(currentPagingRequirements: first, nextPageRequirements: "b") == second
        )
        mock.persistOnlyFirstPage(requirements: octocat)
        mock.deleteCache(other)
        let response = try mock.fetchFreshCache(requirements: other, pagingRequirements: second)
            .toBlocking(timeout: 5).first()
        let page = try response?.get()
        #expect(page?.fetchResponse == ["other"])
        #expect(page?.areMorePages == true)
        #expect(page?.nextPageRequirements == "2")
        try mock.saveCache(["good"], requirements: octocat, pagingRequirements: first)
        #expect(throws: TestError(1)) { try mock.saveCache(["bad"], requirements: other, pagingRequirements: second) }
        let observed = try mock.observeCache(requirements: octocat, pagingRequirements: second)
            .toBlocking(timeout: 5).toArray()
        #expect(observed == [["octocat 2"]])
        #expect(mock.isCacheEmpty(["x"], requirements: octocat, pagingRequirements: first))

        #expect(mock.mockCalled)
        #expect(mock.maxAgeOfCacheCalled && mock.maxAgeOfCacheCallsCount == 1)
        #expect(mock.automaticallyRefreshCalled && mock.automaticallyRefreshCallsCount == 1)
        #expect(mock.getNextPagePagingRequirementsCalled && mock.getNextPagePagingRequirementsCallsCount == 1)
        #expect(mock.getNextPagePagingRequirementsInvocations.map(\.currentPagingRequirements) == [first])
        #expect(mock.getNextPagePagingRequirementsInvocations.map(\.nextPageRequirements) == ["b"])
        #expect(mock.persistOnlyFirstPageCalled && mock.persistOnlyFirstPageCallsCount == 1)
        #expect(mock.persistOnlyFirstPageInvocations == [octocat])
        #expect(trimmed.value == ["octocat"])
        #expect(mock.deleteCacheCalled && mock.deleteCacheCallsCount == 1)
        #expect(mock.deleteCacheInvocations == [other])
        #expect(deleted.value == ["other"])
        #expect(mock.fetchFreshCacheCalled && mock.fetchFreshCacheCallsCount == 1)
        #expect(mock.fetchFreshCacheInvocations.map(\.requirements) == [other])
        #expect(mock.fetchFreshCacheInvocations.map(\.pagingRequirements) == [second])
        #expect(mock.saveCacheCalled && mock.saveCacheCallsCount == 2)
        #expect(mock.saveCacheInvocations.map(\.cache) == [["good"], ["bad"]])
        #expect(mock.saveCacheInvocations.map(\.requirements) == [octocat, other])
        #expect(mock.saveCacheInvocations.map(\.pagingRequirements) == [first, second])
        #expect(mock.observeCacheCalled && mock.observeCacheCallsCount == 1)
        #expect(mock.observeCacheInvocations.map(\.pagingRequirements) == [second])
        #expect(mock.isCacheEmptyCalled && mock.isCacheEmptyCallsCount == 1)
        #expect(mock.isCacheEmptyInvocations.map(\.cache) == [["x"]])
    }

    @Test func aPagingRepositoryOverTheMockFetchesSavesAndPagesOn() {
        let env = VirtualTeller()
        let mock = Mock()
        let saved = Locked<[String]>([])
        let changes = PublishSubject<Void>()
        let pages = [["a", "b"], ["c"]]
        mock.getNextPagePagingRequirementsClosure = { current, _ in PageNumber(number: current.number + 1) }
        mock.fetchFreshCacheClosure = { _, page in
            env.page(pages[page.number - 1], more: page.number < pages.count, next: "\(page.number)", after: 10)
        }
        mock.deleteCacheClosure = { _ in saved.withLock { $0 = [] } }
        mock.saveCacheClosure = { cache, _, _ in
            saved.withLock { $0 += cache }
            changes.onNext(())
        }
        mock.observeCacheClosure = { _, _ in changes.startWith(()).map { saved.value } }
        let repository = TellerPagingRepository(dataSource: mock, firstPageRequirements: first, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<PagedCache<[String]>>.self)
        let octocat = self.octocat
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        env.scheduler.scheduleAt(200) { repository.goToNextPage() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline.first == "101: noCache, firstFetch")
        #expect(states.timeline.last == "214: cache [\"a\", \"b\", \"c\"] age 112")
        #expect(mock.fetchFreshCacheInvocations.map(\.pagingRequirements.number) == [1, 2])
        #expect(mock.getNextPagePagingRequirementsInvocations.map(\.nextPageRequirements) == ["1"])
        #expect(mock.deleteCacheInvocations == [octocat])
        #expect(mock.saveCacheInvocations.map(\.pagingRequirements.number) == [1, 2])
        #expect(mock.isCacheEmptyCalled)
    }

    @Test func aPagingRepositoryOverAnUnscriptedMockShowsWhichClosureToSet() {
        let env = VirtualTeller()
        let repository = TellerPagingRepository(dataSource: Mock(), firstPageRequirements: first, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<PagedCache<[String]>>.self)
        let octocat = self.octocat
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        let failed = CacheState<PagedCache<[String]>>.testing.noCache(requirements: octocat) {
            $0.failedFirstFetch(error: MockClosureNotSetError(closureName: "fetchFreshCacheClosure"))
        }
        #expect(states.events.last?.value.element == failed)
    }

    @Test func theMockIsNotAPlainDataSource() {
        let type: Any.Type = Mock.self
        #expect(!(type is any RepositoryDataSource.Type))
        #expect(type is any PagingRepositoryDataSource.Type)
    }

    @Test func callsFromManyThreadsAreAllRecorded() {
        let mock = Mock()
        let iterations = 1_000
        DispatchQueue.concurrentPerform(iterations: iterations) { index in
            let requirements = TestRequirements(username: "\(index)")
            let page = PageNumber(number: index)
            _ = mock.maxAgeOfCache
            _ = mock.automaticallyRefresh
            _ = mock.getNextPagePagingRequirements(currentPagingRequirements: page, nextPageRequirements: nil)
            mock.persistOnlyFirstPage(requirements: requirements)
            mock.deleteCache(requirements)
            _ = mock.fetchFreshCache(requirements: requirements, pagingRequirements: page)
            try? mock.saveCache(["\(index)"], requirements: requirements, pagingRequirements: page)
            _ = mock.observeCache(requirements: requirements, pagingRequirements: page)
            _ = mock.isCacheEmpty([], requirements: requirements, pagingRequirements: page)
        }
        #expect(mock.maxAgeOfCacheCallsCount == iterations)
        #expect(mock.automaticallyRefreshCallsCount == iterations)
        #expect(
            Set(mock.getNextPagePagingRequirementsInvocations.map(\.currentPagingRequirements.number)).count
                == iterations
        )
        #expect(mock.persistOnlyFirstPageCallsCount == iterations)
        #expect(mock.deleteCacheCallsCount == iterations)
        #expect(Set(mock.fetchFreshCacheInvocations.map(\.requirements.username)).count == iterations)
        #expect(Set(mock.saveCacheInvocations.map(\.cache)).count == iterations)
        #expect(mock.observeCacheCallsCount == iterations)
        #expect(mock.isCacheEmptyCallsCount == iterations)
    }
}

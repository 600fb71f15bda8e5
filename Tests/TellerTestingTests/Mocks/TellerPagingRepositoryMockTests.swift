import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@Suite struct TellerPagingRepositoryMockTests {
    typealias DataSource = PagingRepositoryDataSourceMock<[String], TestRequirements, PageNumber, [String], Error, Void>
    typealias Mock = TellerPagingRepositoryMock<DataSource>

    let octocat = TestRequirements(username: "octocat")

    private func makeMock(_ dataSource: DataSource = DataSource()) -> Mock {
        TellerPagingRepositoryMock(dataSource: dataSource, firstPageRequirements: PageNumber(number: 1))
    }

    @Test func unsetClosuresGiveNeutralAnswersInsteadOfCrashing() throws {
        let mock = makeMock()
        #expect(mock.requirements == nil)
        #expect(try mock.observe().toBlocking(timeout: 5).toArray().isEmpty)
        mock.requirements = octocat
        #expect(try mock.refresh(force: true).toBlocking(timeout: 5).first() == .skipped(reason: .cancelled))
        #expect(try mock.refresh(force: false).toBlocking(timeout: 5).first() == .skipped(reason: .cancelled))
        #expect(try mock.refreshIfNoCache().toBlocking(timeout: 5).first() == .skipped(reason: .cancelled))
        mock.goToNextPage()
        #expect(mock.pagingRequirements == PageNumber(number: 1))
        #expect(!mock.areMorePagesAvailable)
    }

    @Test func nothingIsRecordedBeforeUse() {
        let mock = makeMock()
        #expect(!mock.mockCalled)
        #expect(!mock.requirementsCalled && mock.requirementsCallsCount == 0 && mock.requirementsInvocations.isEmpty)
        #expect(
            !mock.pagingRequirementsCalled && mock.pagingRequirementsCallsCount == 0
                && mock.pagingRequirementsInvocations.isEmpty
        )
        #expect(
            !mock.areMorePagesAvailableCalled && mock.areMorePagesAvailableCallsCount == 0
                && mock.areMorePagesAvailableInvocations.isEmpty
        )
        #expect(!mock.observeCalled && mock.observeCallsCount == 0)
        #expect(!mock.refreshCalled && mock.refreshCallsCount == 0 && mock.refreshInvocations.isEmpty)
        #expect(!mock.refreshIfNoCacheCalled && mock.refreshIfNoCacheCallsCount == 0)
        #expect(!mock.goToNextPageCalled && mock.goToNextPageCallsCount == 0)
    }

    @Test func settingRequirementsRecordsEveryValueAndTheGetterReturnsTheLast() {
        let mock = makeMock()
        let other = TestRequirements(username: "other")
        let seen = Locked<[String?]>([])
        mock.requirementsClosure = { requirements in seen.withLock { $0.append(requirements?.username) } }
        mock.requirements = octocat
        mock.requirements = nil
        mock.requirements = other
        #expect(mock.mockCalled)
        #expect(mock.requirementsCalled)
        #expect(mock.requirementsCallsCount == 3)
        #expect(mock.requirementsInvocations == [octocat, nil, other])
        #expect(mock.requirements == other)
        #expect(mock.requirementsCallsCount == 3)
        #expect(seen.value == ["octocat", nil, "other"])
    }

    @Test func argumentlessCallsRecordTheRequirementsTheMockHeldAtEachCall() throws {
        let mock = makeMock()
        let octocat = TestRequirements(username: "octocat")
        mock.goToNextPage()
        mock.requirements = octocat
        _ = mock.observe()
        _ = try mock.refreshIfNoCache()
        mock.goToNextPage()
        #expect(mock.goToNextPageInvocations == [nil, octocat])
        #expect(mock.goToNextPageCallsCount == 2)
        #expect(mock.observeInvocations == [octocat])
        #expect(mock.refreshIfNoCacheInvocations == [octocat])
    }

    @Test func settingPagingRequirementsRecordsEveryValueLikeSettingRequirementsAndTheGetterAnswersWithIt() {
        let mock = makeMock()
        #expect(mock.pagingRequirements == PageNumber(number: 1))
        mock.pagingRequirements = PageNumber(number: 3)
        mock.pagingRequirements = PageNumber(number: 2)
        #expect(mock.pagingRequirements == PageNumber(number: 2))
        #expect(mock.pagingRequirementsCalled)
        #expect(mock.pagingRequirementsCallsCount == 2)
        #expect(mock.pagingRequirementsInvocations.map(\.number) == [3, 2])
        // The closure answers reads, and sets are still recorded.
        mock.pagingRequirementsClosure = { PageNumber(number: 7) }
        mock.pagingRequirements = PageNumber(number: 4)
        #expect(mock.pagingRequirements == PageNumber(number: 7))
        #expect(mock.pagingRequirementsInvocations.map(\.number) == [3, 2, 4])
    }

    @Test func readingPagingRequirementsIsAUseButNotAnInvocation() {
        let mock = makeMock()
        let reads = Locked(0)
        _ = mock.pagingRequirements
        #expect(mock.mockCalled)
        #expect(!mock.pagingRequirementsCalled)
        #expect(mock.pagingRequirementsInvocations.isEmpty)
        // A closure is how a test counts the reads.
        mock.pagingRequirementsClosure = {
            reads.withLock { $0 += 1 }
            return PageNumber(number: 5)
        }
        _ = mock.pagingRequirements
        _ = mock.pagingRequirements
        #expect(reads.value == 2)
        #expect(mock.pagingRequirementsCallsCount == 0)
    }

    @Test func bothRepositoryMocksRecordSetsOfTheirRequirementsInInvocations() {
        let plain = TellerRepositoryMock(dataSource: InMemoryDataSource())
        let paging = makeMock()
        plain.requirements = octocat
        _ = plain.requirements
        paging.requirements = octocat
        _ = paging.requirements
        paging.pagingRequirements = PageNumber(number: 2)
        _ = paging.pagingRequirements
        #expect(plain.requirementsInvocations == [octocat])
        #expect(paging.requirementsInvocations == [octocat])
        #expect(paging.pagingRequirementsInvocations == [PageNumber(number: 2)])
    }

    @Test func areMorePagesAvailableAnswersWithTheClosureOrTheValueSetAndRecordsEachSet() {
        let mock = makeMock()
        #expect(!mock.areMorePagesAvailable)
        #expect(!mock.areMorePagesAvailableCalled)
        mock.areMorePagesAvailable = true
        #expect(mock.areMorePagesAvailable)
        mock.areMorePagesAvailable = false
        #expect(!mock.areMorePagesAvailable)
        mock.areMorePagesAvailableClosure = { true }
        #expect(mock.areMorePagesAvailable)
        #expect(mock.mockCalled)
        #expect(mock.areMorePagesAvailableCalled)
        #expect(mock.areMorePagesAvailableCallsCount == 2)
        #expect(mock.areMorePagesAvailableInvocations == [true, false])
    }

    @Test func observeReturnsWhatTheClosureReturnsAndCountsCalls() throws {
        let mock = makeMock()
        let state = CacheState<PagedCache<[String]>>.testing.pagedCache(
            requirements: octocat,
            lastTimeFetched: Date(timeIntervalSince1970: 5)
        ) {
            $0.cache(["a"])
            $0.loadingNextPage()
        }
        mock.observeClosure = { .of(state, state) }
        #expect(try mock.observe().toBlocking(timeout: 5).toArray() == [state, state])
        _ = mock.observe()
        #expect(mock.observeCalled)
        #expect(mock.observeCallsCount == 2)
    }

    @Test func refreshRecordsForceAndReturnsOrThrowsWhatTheClosureSays() throws {
        let mock = makeMock()
        mock.requirements = octocat
        mock.refreshClosure = { force in
            if force { throw TellerError.objectPropertiesNotSet(["requirements"]) }
            return RefreshResult.testing.successful()
        }
        #expect(try mock.refresh(force: false).toBlocking(timeout: 5).first() == .successful)
        #expect(throws: TellerError.objectPropertiesNotSet(["requirements"])) { try mock.refresh(force: true) }
        #expect(mock.refreshCalled)
        #expect(mock.refreshCallsCount == 2)
        #expect(mock.refreshInvocations == [false, true])
    }

    @Test func refreshIfNoCacheReturnsOrThrowsWhatTheClosureSays() throws {
        let mock = makeMock()
        mock.requirements = octocat
        mock.refreshIfNoCacheClosure = { RefreshResult.testing.failed(TestError(2)) }
        #expect(try mock.refreshIfNoCache().toBlocking(timeout: 5).first() == .failedError(error: TestError(2)))
        mock.refreshIfNoCacheClosure = { throw TestError(3) }
        #expect(throws: TestError(3)) { try mock.refreshIfNoCache() }
        #expect(mock.refreshIfNoCacheCalled)
        #expect(mock.refreshIfNoCacheCallsCount == 2)
    }

    @Test func goToNextPageCountsCallsAndRunsTheClosureAfterRecording() {
        let mock = makeMock()
        let seen = Locked<[Int]>([])
        mock.goToNextPageClosure = { [unowned mock] in seen.withLock { $0.append(mock.goToNextPageCallsCount) } }
        mock.goToNextPage()
        mock.goToNextPage()
        #expect(mock.mockCalled)
        #expect(mock.goToNextPageCalled)
        #expect(mock.goToNextPageCallsCount == 2)
        #expect(seen.value == [1, 2])
    }

    @Test func aViewModelTestCanPushTheNextPageStateWhenItAsksForOne() throws {
        let mock = makeMock()
        let builder = CacheState<PagedCache<[String]>>.testing
        let firstPage = builder.pagedCache(requirements: octocat, lastTimeFetched: Date(timeIntervalSince1970: 5)) {
            $0.cache(["a", "b"])
            $0.morePages()
        }
        let loading = builder.pagedCache(requirements: octocat, lastTimeFetched: Date(timeIntervalSince1970: 5)) {
            $0.cache(["a", "b"])
            $0.loadingNextPage()
        }
        let states = BehaviorSubject(value: firstPage)
        mock.observeClosure = { states.asObservable() }
        mock.goToNextPageClosure = { states.onNext(loading) }
        let seen = Locked<[Bool]>([])
        let subscription = mock.observe().subscribe(onNext: { state in
            seen.withLock { $0.append(state.cache?.isLoadingNextPage ?? false) }
        })
        mock.goToNextPage()
        subscription.dispose()
        #expect(seen.value == [false, true])
    }

    @Test func theMockNeverDrivesItsDataSource() throws {
        let dataSource = DataSource()
        let mock = makeMock(dataSource)
        mock.requirements = octocat
        _ = try mock.observe().toBlocking(timeout: 5).toArray()
        _ = try mock.refresh(force: true).toBlocking(timeout: 5).first()
        mock.goToNextPage()
        #expect(mock.dataSource === dataSource)
        #expect(!dataSource.fetchFreshCacheCalled)
        #expect(!dataSource.getNextPagePagingRequirementsCalled)
        #expect(!dataSource.observeCacheCalled)
        #expect(!dataSource.persistOnlyFirstPageCalled)
    }

    @Test func codeHoldingATellerPagingRepositoryReachesTheMock() throws {
        let mock = makeMock()
        let repository: TellerPagingRepository<DataSource> = mock
        repository.requirements = octocat
        mock.pagingRequirements = PageNumber(number: 4)
        let pagingRequirements = repository.pagingRequirements
        _ = repository.observe()
        _ = try repository.refresh(force: true)
        _ = try repository.refreshIfNoCache()
        repository.goToNextPage()
        #expect(mock.requirementsInvocations == [octocat])
        #expect(pagingRequirements == PageNumber(number: 4))
        #expect(mock.observeCallsCount == 1)
        #expect(mock.refreshInvocations == [true])
        #expect(mock.refreshIfNoCacheCallsCount == 1)
        #expect(mock.goToNextPageCallsCount == 1)
        #expect(repository.firstPageRequirements == PageNumber(number: 1))
    }

    @Test func aMockMadeInAGivenTellerReportsIt() {
        let teller = Teller(metadataStore: InMemoryFetchMetadataStore())
        let mock = TellerPagingRepositoryMock(
            dataSource: DataSource(),
            firstPageRequirements: PageNumber(number: 1),
            teller: teller
        )
        #expect(mock.teller === teller)
    }

    @Test func callsFromManyThreadsAreAllRecorded() {
        let mock = makeMock()
        let iterations = 1_000
        mock.refreshClosure = { _ in RefreshResult.testing.successful() }
        DispatchQueue.concurrentPerform(iterations: iterations) { index in
            mock.requirements = TestRequirements(username: "\(index)")
            mock.pagingRequirements = PageNumber(number: index)
            _ = mock.pagingRequirements
            mock.areMorePagesAvailable = index.isMultiple(of: 2)
            _ = mock.areMorePagesAvailable
            _ = mock.observe()
            _ = try? mock.refresh(force: index.isMultiple(of: 2))
            _ = try? mock.refreshIfNoCache()
            mock.goToNextPage()
            _ = mock.requirements
        }
        #expect(mock.requirementsCallsCount == iterations)
        #expect(Set(mock.requirementsInvocations.compactMap { $0?.username }).count == iterations)
        #expect(Set(mock.pagingRequirementsInvocations.map(\.number)).count == iterations)
        #expect(mock.areMorePagesAvailableInvocations.filter { $0 }.count == iterations / 2)
        #expect(mock.observeCallsCount == iterations)
        #expect(mock.refreshInvocations.filter { $0 }.count == iterations / 2)
        #expect(mock.refreshIfNoCacheCallsCount == iterations)
        #expect(mock.goToNextPageCallsCount == iterations)
    }
}

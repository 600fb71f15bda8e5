import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@Suite struct TellerRepositoryMockTests {
    let octocat = TestRequirements(username: "octocat")

    private func makeMock() -> TellerRepositoryMock<
        RepositoryDataSourceMock<[String], TestRequirements, [String], Error>
    > {
        TellerRepositoryMock(dataSource: RepositoryDataSourceMock())
    }

    @Test func unsetClosuresGiveNeutralAnswersInsteadOfCrashing() throws {
        let mock = makeMock()
        #expect(mock.requirements == nil)
        #expect(try mock.observe().toBlocking(timeout: 5).toArray().isEmpty)
        mock.requirements = octocat
        #expect(try mock.refresh(force: true).toBlocking(timeout: 5).first() == .skipped(reason: .cancelled))
        #expect(try mock.refresh(force: false).toBlocking(timeout: 5).first() == .skipped(reason: .cancelled))
        #expect(try mock.refreshIfNoCache().toBlocking(timeout: 5).first() == .skipped(reason: .cancelled))
    }

    @Test func nothingIsRecordedBeforeUse() {
        let mock = makeMock()
        #expect(!mock.mockCalled)
        #expect(!mock.requirementsCalled && mock.requirementsCallsCount == 0 && mock.requirementsInvocations.isEmpty)
        #expect(!mock.observeCalled && mock.observeCallsCount == 0)
        #expect(!mock.refreshCalled && mock.refreshCallsCount == 0 && mock.refreshInvocations.isEmpty)
        #expect(!mock.refreshIfNoCacheCalled && mock.refreshIfNoCacheCallsCount == 0)
    }

    @Test func settingRequirementsRecordsEveryValueAndTheGetterReturnsTheLast() {
        let mock = makeMock()
        let other = TestRequirements(username: "other")
        mock.requirements = octocat
        mock.requirements = nil
        mock.requirements = other
        #expect(mock.mockCalled)
        #expect(mock.requirementsCalled)
        #expect(mock.requirementsCallsCount == 3)
        #expect(mock.requirementsInvocations == [octocat, nil, other])
        #expect(mock.requirements == other)
        // Reading is not setting.
        #expect(mock.requirementsCallsCount == 3)
    }

    @Test func requirementsClosureSeesEachNewValueAfterItIsRecorded() {
        let mock = makeMock()
        let seen = Locked<[(String?, Int)]>([])
        mock.requirementsClosure = { [unowned mock] requirements in
            seen.withLock { $0.append((requirements?.username, mock.requirementsCallsCount)) }
        }
        mock.requirements = octocat
        mock.requirements = nil
        #expect(seen.value.map(\.0) == ["octocat", nil])
        #expect(seen.value.map(\.1) == [1, 2])
    }

    @Test func observeReturnsWhatTheClosureReturnsAndCountsCalls() throws {
        let mock = makeMock()
        let state = CacheState<[String]>.testing.cache(
            requirements: octocat,
            lastTimeFetched: Date(timeIntervalSince1970: 5)
        ) {
            $0.cache(["a"])
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

    @Test func argumentlessCallsRecordTheRequirementsTheMockHeldAtEachCall() throws {
        let mock = makeMock()
        _ = mock.observe()
        mock.requirements = octocat
        _ = mock.observe()
        _ = try mock.refreshIfNoCache()
        #expect(mock.observeInvocations == [nil, octocat])
        #expect(mock.observeCallsCount == 2)
        #expect(mock.refreshIfNoCacheInvocations == [octocat])
        #expect(mock.refreshIfNoCacheCallsCount == 1)
    }

    @Test func theMockNeverDrivesItsDataSource() throws {
        let dataSource = RepositoryDataSourceMock<[String], TestRequirements, [String], Error>()
        let mock = TellerRepositoryMock(dataSource: dataSource)
        mock.requirements = octocat
        _ = try mock.observe().toBlocking(timeout: 5).toArray()
        _ = try mock.refresh(force: true).toBlocking(timeout: 5).first()
        #expect(mock.dataSource === dataSource)
        #expect(!dataSource.fetchFreshCacheCalled)
        #expect(!dataSource.observeCacheCalled)
        #expect(!dataSource.saveCacheCalled)
    }

    @Test func codeHoldingATellerRepositoryReachesTheMock() throws {
        let mock = makeMock()
        let repository: TellerRepository<RepositoryDataSourceMock<[String], TestRequirements, [String], Error>> = mock
        repository.requirements = octocat
        _ = repository.observe()
        _ = try repository.refresh(force: true)
        _ = try repository.refreshIfNoCache()
        #expect(mock.requirementsInvocations == [octocat])
        #expect(mock.observeCallsCount == 1)
        #expect(mock.refreshInvocations == [true])
        #expect(mock.refreshIfNoCacheCallsCount == 1)
    }

    @Test func repositoryMockIsTheOldNameOfTheSameType() {
        let mock: RepositoryMock<RepositoryDataSourceMock<[String], TestRequirements, [String], Error>> = makeMock()
        #expect(
            type(of: mock)
                == TellerRepositoryMock<RepositoryDataSourceMock<[String], TestRequirements, [String], Error>>.self
        )
    }

    @Test func aMockMadeInAGivenTellerReportsIt() {
        let teller = Teller(metadataStore: InMemoryFetchMetadataStore())
        let mock = TellerRepositoryMock(
            dataSource: RepositoryDataSourceMock<[String], TestRequirements, [String], Error>(),
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
            _ = mock.observe()
            _ = try? mock.refresh(force: index.isMultiple(of: 2))
            _ = try? mock.refreshIfNoCache()
            _ = mock.requirements
        }
        #expect(mock.requirementsCallsCount == iterations)
        #expect(Set(mock.requirementsInvocations.compactMap { $0?.username }).count == iterations)
        #expect(mock.observeCallsCount == iterations)
        #expect(mock.refreshInvocations.filter { $0 }.count == iterations / 2)
        #expect(mock.refreshIfNoCacheCallsCount == iterations)
    }
}

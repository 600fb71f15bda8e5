import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Teller-iOS's `test_refresh_givenNoRequirements_expectThrows`: without requirements, refresh
/// and refreshIfNoCache throw `objectPropertiesNotSet(["requirements"])`, on the mocks as on the
/// real repositories, whatever the mock's closures say.
@Suite struct RefreshWithoutRequirementsThrowsTests {
    typealias DataSource = RepositoryDataSourceMock<String, TestRequirements, String, Error>
    typealias PagingDataSource = PagingRepositoryDataSourceMock<
        [String], TestRequirements, PageNumber, [String], Error, Void
    >

    let notSet = TellerError.objectPropertiesNotSet(["requirements"])
    let teller = Teller(metadataStore: InMemoryFetchMetadataStore())

    @Test func theRepositoryMockThrowsLikeTheRealRepository() throws {
        let real = TellerRepository(dataSource: DataSource(), teller: teller)
        let repository = TellerRepositoryMock(dataSource: DataSource())
        repository.refreshClosure = { _ in Single.just(RefreshResult.successful) }
        repository.refreshIfNoCacheClosure = { Single.just(RefreshResult.successful) }

        #expect(throws: notSet) { try real.refresh(force: false) }
        #expect(throws: notSet) { try real.refreshIfNoCache() }
        #expect(throws: notSet) { try repository.refresh(force: false) }
        #expect(throws: notSet) { try repository.refreshIfNoCache() }
    }

    @Test func thePagingRepositoryMockThrowsLikeTheRealPagingRepository() throws {
        let first = PageNumber(number: 1)
        let real = TellerPagingRepository(dataSource: PagingDataSource(), firstPageRequirements: first, teller: teller)
        let repository = TellerPagingRepositoryMock(dataSource: PagingDataSource(), firstPageRequirements: first)
        repository.refreshClosure = { _ in Single.just(RefreshResult.successful) }

        #expect(throws: notSet) { try real.refresh(force: true) }
        #expect(throws: notSet) { try real.refreshIfNoCache() }
        #expect(throws: notSet) { try repository.refresh(force: true) }
        #expect(throws: notSet) { try repository.refreshIfNoCache() }
    }

    @Test func theCallIsRecordedAndOnceRequirementsAreSetTheClosureAnswers() throws {
        let repository = TellerRepositoryMock(dataSource: DataSource())
        repository.refreshClosure = { _ in Single.just(RefreshResult.successful) }

        _ = try? repository.refresh(force: true)
        repository.requirements = TestRequirements(username: "")
        let answer = try repository.refresh(force: false).toBlocking().first()

        #expect(repository.mockCalled)
        #expect(repository.refreshInvocations == [true, false])
        #expect(answer == .successful)
    }
}

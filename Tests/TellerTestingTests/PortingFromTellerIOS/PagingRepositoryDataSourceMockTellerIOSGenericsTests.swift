import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Teller-iOS's tests spell the paging mock
/// `PagingRepositoryDataSourceMock<PagingCache, Requirements, PagingRequirements, PagingFetchResult, FetchError, NextPageRequirements>`;
/// that order compiles and means the same here.
@Suite struct PagingRepositoryDataSourceMockTellerIOSGenericsTests {
    typealias DataSource = PagingRepositoryDataSourceMock<[String], TestRequirements, PageNumber, [Int], Error, String>

    let defaultRequirements = TestRequirements(username: "")

    @Test func eachGenericParameterIsTheTypeTellerIOSGaveItThatPlace() {
        #expect(DataSource.PagingCache.self == [String].self)
        #expect(DataSource.Requirements.self == TestRequirements.self)
        #expect(DataSource.PagingRequirements.self == PageNumber.self)
        #expect(DataSource.PagingFetchResult.self == [Int].self)
        #expect(DataSource.FetchError.self == Error.self)
        #expect(DataSource.NextPageRequirements.self == String.self)
    }

    @Test func theMembersTakeAndGiveThoseTypes() throws {
        let dataSource = DataSource()
        dataSource.fetchFreshCacheClosure = { _, _ in
            Single.just(
                .success(PagedFetchResponse(areMorePages: true, nextPageRequirements: "cursor", fetchResponse: [1]))
            )
        }
        dataSource.getNextPagePagingRequirementsClosure = { current, next in
            PageNumber(number: current.number + (next == "cursor" ? 1 : 0))
        }

        let page = try dataSource.fetchFreshCache(
            requirements: defaultRequirements,
            pagingRequirements: PageNumber(number: 1)
        )
        .toBlocking().first()?.get()
        let next = dataSource.getNextPagePagingRequirements(
            currentPagingRequirements: PageNumber(number: 1),
            nextPageRequirements: page?.nextPageRequirements
        )
        try dataSource.saveCache([1], requirements: defaultRequirements, pagingRequirements: next)

        #expect(page?.fetchResponse == [1])
        #expect(next == PageNumber(number: 2))
        #expect(dataSource.saveCacheInvocations[0].0 == [1])
        #expect(dataSource.saveCacheInvocations[0].2 == PageNumber(number: 2))
        #expect(dataSource.getNextPagePagingRequirementsInvocations[0].1 == "cursor")
    }
}

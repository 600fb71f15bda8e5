import Foundation
import Teller
import TellerTestSupport
import TellerTesting
import Testing

/// Teller reads `maxAgeOfCache` and `automaticallyRefresh` through its data-source protocols: the
/// mocks' scripted answers are what it reads, not the protocols' defaults.
@Suite struct DataSourceMocksAnswerTellerThroughTheProtocolTests {
    private func asTellerReadsThem(_ dataSource: some TellerDataSource) -> (Period, Bool) {
        (dataSource.maxAgeOfCache, dataSource.automaticallyRefresh)
    }

    @Test func theDataSourceMockAnswersWithItsClosures() {
        let dataSource = RepositoryDataSourceMock<String, TestRequirements, String, Error>()
        dataSource.maxAgeOfCacheClosure = { Period(unit: 3, component: .day) }
        dataSource.automaticallyRefreshClosure = { false }

        let (maxAge, automatically) = asTellerReadsThem(dataSource)

        #expect(maxAge == Period(unit: 3, component: .day))
        #expect(!automatically)
        #expect(dataSource.maxAgeOfCacheCallsCount == 1)
        #expect(dataSource.automaticallyRefreshCallsCount == 1)
    }

    @Test func thePagingDataSourceMockAnswersWithItsClosures() {
        let dataSource = PagingRepositoryDataSourceMock<[String], TestRequirements, PageNumber, [String], Error, Void>()
        dataSource.maxAgeOfCacheClosure = { Period(unit: 2, component: .minute) }
        dataSource.automaticallyRefreshClosure = { false }

        let (maxAge, automatically) = asTellerReadsThem(dataSource)

        #expect(maxAge == Period(unit: 2, component: .minute))
        #expect(!automatically)
        #expect(dataSource.mockCalled)
    }
}

import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Teller-iOS's tests spell the mock `RepositoryDataSourceMock<Cache, Requirements, FetchResult, FetchError>`;
/// those spellings compile and behave here.
@Suite struct RepositoryDataSourceMockTellerIOSGenericsTests {
    struct NotConnected: Error, Equatable {}

    let defaultRequirements = TestRequirements(username: "")

    @Test func aMockSpelledAsInTellerIOSFetchesSavesAndObserves() throws {
        let dataSource = RepositoryDataSourceMock<String, TestRequirements, String, Error>()
        dataSource.fetchFreshCacheClosure = { _ in Single.just(FetchResponse.success("fetched")) }
        dataSource.observeCacheClosure = { _ in Observable.just("cache") }

        let fetched = try dataSource.fetchFreshCache(requirements: defaultRequirements).toBlocking().first()
        try dataSource.saveCache("new", requirements: defaultRequirements)

        #expect(try fetched?.get() == "fetched")
        #expect(try dataSource.observeCache(requirements: defaultRequirements).toBlocking().first() == "cache")
        #expect(dataSource.saveCacheCallsCount == 1)
        #expect(dataSource.saveCacheInvocations[0].0 == "new")
        #expect(dataSource.fetchFreshCacheInvocations[0].username == "")
    }

    @Test func aTypedFetchErrorIsWhatTheFetchFailsWith() throws {
        let dataSource = RepositoryDataSourceMock<String, TestRequirements, String, NotConnected>()
        dataSource.fetchFreshCacheClosure = { _ in .just(.failure(NotConnected())) }

        let response = try dataSource.fetchFreshCache(requirements: defaultRequirements).toBlocking().first()

        #expect(response == .failure(NotConnected()))
    }

    @Test func anUnsetFetchWithATypedFetchErrorFailsTheSingleNamingTheClosure() {
        let dataSource = RepositoryDataSourceMock<String, TestRequirements, String, NotConnected>()

        #expect(throws: MockClosureNotSetError(closureName: "fetchFreshCacheClosure")) {
            _ = try dataSource.fetchFreshCache(requirements: defaultRequirements).toBlocking().first()
        }
    }
}

import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Teller-iOS's tests call `RepositoryTesting.initState` and compare `RepositoryTesting.SetValues`;
/// both do here what `TellerRepository.testing` does.
@Suite struct RepositoryTestingTellerIOSNameTests {
    typealias DataSource = RepositoryDataSourceMock<String, TestRequirements, String, Error>

    let defaultRequirements = TestRequirements(username: "")

    private func makeRepository(_ dataSource: DataSource) -> (TellerRepository<DataSource>, Teller) {
        let teller = Teller(metadataStore: InMemoryFetchMetadataStore())
        return (TellerRepository(dataSource: dataSource, teller: teller), teller)
    }

    @Test func initStateNoCacheSetsNothing() {
        let dataSource = DataSource()
        let (repository, teller) = makeRepository(dataSource)

        let actualSetValues = RepositoryTesting.initState(repository: repository, requirements: defaultRequirements) {
            $0.noCache()
        }

        #expect(actualSetValues == RepositoryTesting.SetValues(lastFetched: nil))
        #expect(teller.metadataStore.metadata(forTag: defaultRequirements.tag) == nil)
        #expect(!dataSource.saveCacheCalled)
    }

    @Test func initStateCacheSavesItAndRecordsTheFetchTime() {
        let dataSource = DataSource()
        let (repository, teller) = makeRepository(dataSource)

        let actualSetValues = RepositoryTesting.initState(repository: repository, requirements: defaultRequirements) {
            $0.cache("cache")
        }

        let lastFetched = teller.metadataStore.metadata(forTag: defaultRequirements.tag)?.lastFetched
        #expect(actualSetValues.lastFetched != nil)
        #expect(actualSetValues.lastFetched == lastFetched)
        #expect(dataSource.saveCacheInvocations.map(\.cache) == ["cache"])
    }

    @Test func initStateAsyncCallsBackWithWhatItWrote() throws {
        let dataSource = DataSource()
        let (repository, _) = makeRepository(dataSource)
        let done = DispatchSemaphore(value: 0)
        let received = Locked<RepositoryTesting.SetValues?>(nil)

        RepositoryTesting.initStateAsync(
            repository: repository,
            requirements: defaultRequirements,
            onComplete: { setValues in
                received.withLock { $0 = setValues }
                done.signal()
            },
            more: { $0.cacheEmpty { $0.cacheTooOld() } }
        )

        #expect(done.wait(timeout: .now() + 10) == .success)
        let lastFetched = try #require(received.value?.lastFetched)
        #expect(lastFetched < Period(unit: 1, component: .hour).toDate())
        #expect(!dataSource.saveCacheCalled)
    }
}

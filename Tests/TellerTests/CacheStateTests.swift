import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@Suite struct CacheStateTests {
    @Test func convertKeepsEverythingButTheCache() {
        let env = VirtualTeller()
        let dataSource = InMemoryDataSource()
        dataSource.write(["a", "b"], for: TestRequirements(username: "x"))
        env.markFetched(TestRequirements(username: "x"), at: 5)
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<Int>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = TestRequirements(username: "x")
            _ = repository.observe().map { state in state.convert { $0?.count } }.subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        let last = states.events.compactMap(\.value.element).last
        #expect(last?.cache == 2)
        #expect(last?.cacheAge == env.date(5))
        #expect(last?.requirements?.tag == "Repos for x")
        #expect(last?.isLoadingCache == false)
    }

    @Test func refreshResultsCompareErrorsByTypeAndDescription() {
        #expect(RefreshResult.failedError(error: TestError(1)) == .failedError(error: TestError(1)))
        #expect(RefreshResult.failedError(error: TestError(1)) != .failedError(error: TestError(2)))
        #expect(RefreshResult.skipped(reason: .cancelled) != .skipped(reason: .dataNotTooOld))
        #expect(RefreshResult.successful.didSucceed)
        #expect(RefreshResult.failedError(error: TestError(1)).error != nil)
    }

    @Test func fetchResponseKeepsTellerIOSsSpelling() {
        let response = FetchResponse<[Int], any Error>.success(data: [1])
        #expect((try? response.get()) == [1])
    }
}

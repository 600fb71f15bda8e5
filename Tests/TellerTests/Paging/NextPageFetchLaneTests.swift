import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// At most one fetch of a tag runs at a time, next pages included: a next page's fetch waits in
/// the tag's fetch lane behind another repository's first-page fetch of the same list, and the
/// other way round.
@Suite struct NextPageFetchLaneTests {
    let env = VirtualTeller()

    /// A page server whose fetches take `ticks`, counting how many run at once.
    final class CountingServer: @unchecked Sendable {
        // @unchecked: used on virtual time, on the test's thread.
        private(set) var running = 0
        private(set) var mostAtOnce = 0
        private(set) var started: [String] = []

        func fetch(
            _ page: PageNumber,
            env: VirtualTeller,
            after ticks: Int
        ) -> Single<FetchResponse<PagedFetchResponse<[String], Void>, any Error>> {
            env.page(["page \(page.number)"], more: true, next: Void?.none, after: ticks)
                .asObservable()
                .do(
                    onCompleted: { self.running -= 1 },
                    onSubscribe: {
                        self.running += 1
                        self.mostAtOnce = max(self.mostAtOnce, self.running)
                        self.started.append("\(page.number) at \(env.scheduler.clock)")
                    }
                )
                .asSingle()
        }
    }

    @Test func anotherRepositorysFirstPageFetchWaitsForARunningNextPageFetchOfTheSameList() {
        let server = CountingServer()
        let dataSource = PageNumberDataSource()
        let env = env
        dataSource.respond { page in server.fetch(page, env: env, after: 10) }
        let (first, _) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        let (second, _) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(first, at: 200)
        env.scheduler.scheduleAt(203) { _ = try? second.refresh(force: true).subscribe() }
        withExtendedLifetime((first, second)) { env.scheduler.start() }

        #expect(server.mostAtOnce == 1, "\(server.started)")
        // The refresh's first page started once page 2 was fetched (at 211), not at 203.
        #expect(server.started.last.map { $0.hasPrefix("1 at 21") } == true, "\(server.started)")
        #expect(server.started.contains { $0.hasPrefix("2 at ") })
    }
}

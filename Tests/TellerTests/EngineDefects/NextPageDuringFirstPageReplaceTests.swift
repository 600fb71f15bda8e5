import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// A next page builds on the first page, so it never runs (fetch or save) while the first page
/// of its tag is being replaced (`deleteCache` + `saveCache` of page 1), when the store holds no
/// page until the replacement ends: not when the refresh doing it was cancelled meanwhile, and
/// not when another repository showing the tag does it.
@Suite struct NextPageDuringFirstPageReplaceTests {
    /// One data source (one store) whose page fetches note a next page fetched while page 1 is
    /// being replaced, and whose writes are recorded.
    private struct Fixture {
        let queues = LabelledQueues()
        let cancelled = DispatchSemaphore(value: 0)
        let record = WriteRecord()
        let isReplacing = Locked(false)
        let violations = Locked<[String]>([])
        let nextPageStarted = DispatchSemaphore(value: 0)
        let dataSource = PageNumberDataSource()
        let teller: Teller

        init() {
            teller = queues.teller(onLog: signalOnCancellation(cancelled))
            dataSource.answerAtOnce { [isReplacing, violations, nextPageStarted] page in
                guard page.number > 1 else { return }
                if isReplacing.value { violations.withLock { $0.append("fetch \(page) while page 1 was replaced") } }
                nextPageStarted.signal()
            }
        }

        func repository() -> TellerPagingRepository<PageNumberDataSource> {
            TellerPagingRepository(dataSource: dataSource, firstPageRequirements: PageNumber(number: 1), teller: teller)
        }

        /// Observes `repository` showing the list until page 1 is shown, with more pages.
        func showFirstPage(_ repository: TellerPagingRepository<PageNumberDataSource>) -> any Disposable {
            let shown = DispatchSemaphore(value: 0)
            let subscription = repository.observe().subscribe(onNext: { state in
                if state.cache?.cache == ["page 1"], state.cache?.areMorePages == true, !state.isRefreshing {
                    shown.signal()
                }
            })
            repository.requirements = TestRequirements(username: "octocat")
            #expect(shown.wait(timeout: .now() + 60) == .success)
            return subscription
        }

        /// From now on, the next write (page 1's `deleteCache`) is held at the gate.
        func holdTheNextWrite() {
            dataSource.onWrite = record.hook(named: "page 1's replacement")
            isReplacing.withLock { $0 = true }
        }

        /// Waits a moment for a next page to start, then lets the held write go on.
        func releaseAfterLookingForANextPage() {
            _ = arrives(nextPageStarted, within: 2)
            isReplacing.withLock { $0 = false }
            record.openGate()
        }

        func expectNoNextPageRanDuringTheReplacement() {
            #expect(violations.value.isEmpty, "\(violations.value)")
            #expect(record.maximumAtOnce == 1, "a next page's save overlapped page 1's: \(record.overlaps)")
        }
    }

    @Test func aNextPageWaitsForTheReplacementOfACancelledRefreshOfItsOwnRepository() throws {
        let fixture = Fixture()
        let repository = fixture.repository()
        let observing = fixture.showFirstPage(repository)

        fixture.holdTheNextWrite()
        let refresh = try repository.refresh(force: true).subscribe()
        #expect(fixture.record.firstWriteHeld.wait(timeout: .now() + 60) == .success)
        refresh.dispose()
        _ = arrives(fixture.cancelled, within: 5)
        repository.goToNextPage()
        fixture.releaseAfterLookingForANextPage()
        observing.dispose()

        fixture.expectNoNextPageRanDuringTheReplacement()
    }

    @Test func aNextPageWaitsForTheReplacementOfARefreshOfAnotherRepositoryShowingTheTag() throws {
        let fixture = Fixture()
        let pager = fixture.repository()
        let observing = fixture.showFirstPage(pager)

        // The second repository trims the list to page 1 when its requirements are set: that
        // write is over before the one held below, page 1's replacement, starts.
        let refresher = fixture.repository()
        let refresherObserving = fixture.showFirstPage(refresher)
        fixture.holdTheNextWrite()
        let finished = DispatchSemaphore(value: 0)
        let refresh = try refresher.refresh(force: true).subscribe(onSuccess: { _ in finished.signal() })
        #expect(fixture.record.firstWriteHeld.wait(timeout: .now() + 60) == .success)
        pager.goToNextPage()
        fixture.releaseAfterLookingForANextPage()
        _ = arrives(finished, within: 60)
        refresh.dispose()
        refresherObserving.dispose()
        observing.dispose()

        fixture.expectNoNextPageRanDuringTheReplacement()
    }
}

import Foundation
import TellerTestSupport
import Testing

@testable import Teller

/// The paging repository's machine alone (`RepositoryMachine<PagingExtension<…>>`), driven only
/// through `handle(_:now:)`: no threads, no schedulers. Each test reads as the actions one input
/// returns (see ``PagingMachineHarness``). The clock stands at 10,000 s; a cache is too old
/// after an hour.
@Suite struct PagingMachineTests {
    typealias Harness = PagingMachineHarness

    /// First page fetched at 10,000 (waiter 1) and shown; `more` says whether page 2 exists.
    private func onFirstPage(more: Bool = true) -> Harness {
        var harness = Harness()
        _ = harness.setRequirements(nil)
        _ = harness.saving()
        _ = harness.finished(.successful, stored: Harness.stored(10_000, more: more))
        _ = harness.emitted(pages: 1)
        return harness
    }

    /// Pages 1 and 2 shown; page 2 says whether page 3 exists.
    private func onSecondPage(more: Bool = true) -> Harness {
        var harness = onFirstPage()
        _ = harness.goToNextPage()
        _ = harness.nextPageFetched(Harness.page(2, more: more))
        _ = harness.nextPageSaved()
        _ = harness.emitted(pages: 2)
        return harness
    }

    // MARK: Requirements

    @Test func requirementsWithACacheTrimItBeforeObservingItAndAlwaysFetchTheFirstPage() {
        var harness = Harness()
        // Fresh (fetched 1,000 s ago), yet the first page is fetched: the pages beyond it are gone.
        #expect(
            harness.setRequirements(Harness.stored(9_000, more: true)) == [
                "trim", "emit cache unread age 9000, refreshing",
            ]
        )
        // The flight waits for the trim; the cache is read after it.
        #expect(harness.trimmed() == ["observe page 1", "join"])
        #expect(harness.emitted(pages: 1) == ["emit cache [\"1\"] age 9000, refreshing, more"])
    }

    @Test func requirementsWithoutACacheFetchTheFirstPageAndObserveItOnceSaved() {
        var harness = Harness()
        #expect(harness.setRequirements(nil) == ["join", "emit noCache, firstFetch"])
        #expect(harness.saving().isEmpty)
        #expect(
            harness.finished(.successful, stored: Harness.stored(10_000, more: true))
                == ["observe page 1", "emit cache unread age 10000, justFinishedFirstFetch"]
        )
        #expect(harness.emitted(pages: 1) == ["emit cache [\"1\"] age 10000, more"])
    }

    @Test func withoutAutomaticRefreshACachedListIsTrimmedAndShownWithoutAFetch() {
        var harness = Harness(automaticallyRefresh: false)
        #expect(harness.setRequirements(Harness.stored(9_000, more: true)) == ["trim", "emit cache unread age 9000"])
        #expect(harness.trimmed() == ["observe page 1"])
        #expect(harness.emitted(pages: 1) == ["emit cache [\"1\"] age 9000, more"])
        #expect(
            harness.goToNextPage() == [
                "fetchNextPage after page 1", "emit cache [\"1\"] age 9000, more, loadingNextPage",
            ]
        )
    }

    // MARK: Next pages

    @Test func aNextPageIsFetchedSavedAndShownLoadingUntilTheCacheEmitsIt() {
        var harness = onFirstPage()
        #expect(
            harness.goToNextPage() == [
                "fetchNextPage after page 1", "emit cache [\"1\"] age 10000, more, loadingNextPage",
            ]
        )
        // Asked again while it loads: nothing.
        #expect(harness.goToNextPage().isEmpty)
        #expect(harness.nextPageFetched(Harness.page(2, more: false)) == ["saveNextPage page 2"])
        // Saved: observed again with page 2, still loading until the cache shows it.
        #expect(harness.nextPageSaved() == ["observe page 2"])
        #expect(harness.emitted(pages: 2) == ["emit cache [\"1\", \"2\"] age 10000"])
        #expect(harness.pagingRequirements == 2)
        // Page 2 said it is the last.
        #expect(harness.goToNextPage().isEmpty)
    }

    @Test func aFailedNextPageKeepsThePagesAndIsRetriedByTheNextCall() {
        var harness = onFirstPage()
        _ = harness.goToNextPage()
        #expect(
            harness.nextPageFetched(.failed(TestError(4)))
                == ["emit cache [\"1\"] age 10000, more, nextPageError TestError(4)"]
        )
        #expect(
            harness.goToNextPage() == [
                "fetchNextPage after page 1", "emit cache [\"1\"] age 10000, more, loadingNextPage",
            ]
        )
    }

    @Test func aNextPageAskedForDuringARefreshWaitsAndRunsAgainstTheRefreshedFirstPage() {
        var harness = onSecondPage()
        let (waiter, refresh) = harness.refresh()
        #expect(refresh == ["join", "emit cache [\"1\", \"2\"] age 10000, refreshing, more"])
        #expect(harness.goToNextPage() == ["emit cache [\"1\", \"2\"] age 10000, refreshing, more, loadingNextPage"])
        // The subscription stays while the first page is saved; the end observes again.
        #expect(harness.saving().isEmpty)
        harness.now = 10_100
        #expect(
            harness.finished(.successful, stored: Harness.stored(10_100, more: true)) == [
                "respond w\(waiter) successful", "observe page 1",
                "emit cache [\"1\", \"2\"] age 10100, justFinishedRefresh, more, loadingNextPage",
                "fetchNextPage after page 1",
            ]
        )
    }

    @Test func aNextPageAskedForDuringARefreshThatFailsRunsAgainstThePagesShown() {
        var harness = onSecondPage()
        let (waiter, _) = harness.refresh()
        _ = harness.goToNextPage()
        #expect(
            harness.finished(.failedError(error: TestError(1)), stored: Harness.stored(10_000, more: true)) == [
                "respond w\(waiter) failedError(TestError(1))",
                "emit cache [\"1\", \"2\"] age 10000, refreshError TestError(1), more, loadingNextPage",
                "fetchNextPage after page 2",
            ]
        )
    }

    @Test func aNextPageFetchingWhenARefreshStartsIsCancelledAndFetchedAgainAfterIt() {
        var harness = onFirstPage()
        _ = harness.goToNextPage()
        let (_, refresh) = harness.refresh()
        #expect(
            refresh == [
                "cancelNextPage", "join", "emit cache [\"1\"] age 10000, refreshing, more, loadingNextPage",
            ]
        )
        // Its answer arrives anyway: too late, ignored.
        #expect(harness.nextPageFetched(Harness.page(2, more: true)).isEmpty)
        _ = harness.saving()
        let finished = harness.finished(.successful, stored: Harness.stored(10_000, more: true))
        #expect(finished.last == "fetchNextPage after page 1")
    }

    @Test func aRefreshAskedForWhileANextPageIsSavedJoinsItsFlightOnceTheSaveEnds() {
        var harness = onFirstPage()
        _ = harness.goToNextPage()
        _ = harness.nextPageFetched(Harness.page(2, more: true))
        let (_, refresh) = harness.refresh()
        // Held: no flight may delete the pages while page 2 is written.
        #expect(refresh == ["emit cache [\"1\"] age 10000, refreshing, more, loadingNextPage"])
        #expect(harness.nextPageSaved() == ["observe page 2", "join"])
    }

    // MARK: Refreshes

    @Test func pullToRefreshOnPageTwoFetchesTheFirstPageAndResetsPagingToIt() {
        var harness = onSecondPage()
        _ = harness.refresh()
        _ = harness.saving()
        _ = harness.finished(.successful, stored: Harness.stored(10_000, more: true))
        #expect(harness.pagingRequirements == 1)
        #expect(harness.emitted(pages: 1) == ["emit cache [\"1\"] age 10000, more"])
        #expect(harness.goToNextPage().first == "fetchNextPage after page 1")
    }

    @Test func aFailedFirstPageSaveStartsOverAtTheFirstPageWithNoNextPage() {
        var harness = onSecondPage()
        _ = harness.refresh()
        _ = harness.saving()
        // deleteCache ran, then saveCache threw: the cache is empty.
        let finished = harness.finished(
            .failedError(error: TestError(2)),
            stored: Harness.stored(10_000, more: false)
        )
        #expect(finished.contains("observe page 1"))
        #expect(harness.emitted(pages: 0) == ["emit cache empty age 10000"])
        #expect(harness.pagingRequirements == 1)
        #expect(!harness.areMorePages)
        #expect(harness.goToNextPage().isEmpty)
    }

    // MARK: Metadata

    @Test func aFirstPageSavedByAnotherRepositoryResetsPagingAndRestartsTheNextPageAgainstIt() {
        var harness = onSecondPage()
        _ = harness.goToNextPage()
        harness.now = 10_200
        #expect(
            harness.metadataChanged(Harness.stored(10_200, more: true)) == [
                "emit cache [\"1\", \"2\"] age 10200, more, loadingNextPage", "observe page 1", "cancelNextPage",
                "fetchNextPage after page 1",
            ]
        )
        #expect(harness.emitted(pages: 1) == ["emit cache [\"1\"] age 10200, more, loadingNextPage"])
    }

    @Test func clearedMetadataForgetsThePagesAndFetchesTheFirstPageAgain() {
        var harness = onSecondPage()
        #expect(harness.metadataChanged(nil) == ["stopObserving", "join", "emit noCache, firstFetch"])
        #expect(harness.pagingRequirements == 1)
        #expect(!harness.areMorePages)
        #expect(harness.goToNextPage().isEmpty)
    }

    // MARK: Defects the randomized test found (PagingRandomizedTests, seeds in each comment)

    /// Seed 85 (then two flights could end in one refresh): a save that throws after the old
    /// pages were deleted leaves no next page to page on from, whatever the stored progress says.
    @Test func aSaveThatThrowsAfterTheOldPagesWereDeletedLeavesNoNextPage() {
        var harness = onFirstPage()
        _ = harness.refresh()
        _ = harness.saving()
        _ = harness.finished(.failedError(error: TestError(2)), stored: Harness.stored(10_000, more: true))
        #expect(harness.emitted(pages: 0) == ["emit cache empty age 10000"])
        #expect(harness.goToNextPage().isEmpty)
    }

    /// Seeds 37 and 38: another flight saved a new first page while this repository's refresh
    /// ran, and the refresh failed: paging stayed on page 2, with page 2's `areMorePages`, over
    /// a cache holding the first page only.
    @Test func aFirstPageSavedByAnotherFlightDuringAFailedRefreshResetsPagingToIt() {
        var harness = onSecondPage(more: false)
        let (waiter, _) = harness.refresh()
        harness.now = 10_100
        let stored = Harness.stored(10_100, more: true)
        #expect(harness.metadataChanged(stored).isEmpty)
        #expect(
            harness.finished(.failedError(error: TestError(1)), stored: stored) == [
                "respond w\(waiter) failedError(TestError(1))",
                "emit cache [\"1\", \"2\"] age 10100, refreshError TestError(1)", "observe page 1",
            ]
        )
        #expect(harness.emitted(pages: 1) == ["emit cache [\"1\"] age 10100, more"])
        #expect(harness.goToNextPage().first == "fetchNextPage after page 1")
    }

    /// The same when the change arrives after the refresh's end already read the new fetch time:
    /// it was taken for nothing new. Paging is reset, and the cache is read again so that the
    /// first page's `areMorePages` shows even when its pages were read before the change.
    @Test func aMetadataChangeArrivingAfterAFailedRefreshReadItStillResetsPaging() {
        var harness = onSecondPage(more: false)
        _ = harness.refresh()
        harness.now = 10_100
        _ = harness.finished(.failedError(error: TestError(1)), stored: Harness.stored(10_100, more: true))
        #expect(harness.pagingRequirements == 2)
        #expect(
            harness.metadataChanged(Harness.stored(10_100, more: true)) == [
                "emit cache [\"1\", \"2\"] age 10100", "observe page 1",
            ]
        )
        #expect(harness.emitted(pages: 1) == ["emit cache [\"1\"] age 10100, more"])
    }

    /// Seed 6998: a refresh's end read metadata that `Teller.clear()` had just emptied, so the
    /// clearing itself looked like nothing new and paging kept page 2 and its next page.
    @Test func clearingThatARefreshsEndAlreadyReadStillForgetsThePages() {
        var harness = onSecondPage()
        _ = harness.refresh()
        _ = harness.finished(.skipped(reason: .cancelled), stored: nil)
        _ = harness.metadataChanged(nil)
        #expect(harness.pagingRequirements == 1)
        #expect(!harness.areMorePages)
        #expect(harness.goToNextPage().isEmpty)
    }

    // MARK: Storm

    @Test func aFailedFlightPausesAutomaticRefreshUntilSomethingNewHappens() {
        var harness = Harness()
        // Too old (fetched 5,000 s ago).
        _ = harness.setRequirements(Harness.stored(5_000, more: true))
        _ = harness.trimmed()
        #expect(
            harness.finished(.failedError(error: TestError(1)), stored: Harness.stored(5_000, more: true))
                == ["emit cache unread age 5000, refreshError TestError(1)"]
        )
        // The cache, still too old, emits again and again (re-subscriptions do): no new flight.
        #expect(harness.emitted(pages: 1) == ["emit cache [\"1\"] age 5000, more"])
        #expect(harness.emitted(pages: 1) == ["emit cache [\"1\"] age 5000, more"])
        #expect(harness.machine.isAutomaticRefreshPaused)
        // A new observe() is something new.
        #expect(harness.send(.observed) == ["join", "emit cache [\"1\"] age 5000, refreshing, more"])
    }

    // MARK: Shutdown

    @Test func shutDownDuringTheTrimAnswersHeldWaitersCancelsTheTrimAndCompletes() {
        var harness = Harness()
        _ = harness.setRequirements(Harness.stored(9_000, more: true))
        let (waiter, refresh) = harness.refresh()
        #expect(refresh.isEmpty)
        #expect(
            harness.send(.shutDown) == [
                "stopObserving", "respond w\(waiter) skipped(cancelled)", "endSession", "complete",
            ]
        )
        #expect(harness.trimmed().isEmpty)
        #expect(harness.goToNextPage().isEmpty)
        #expect(harness.setRequirements(nil).isEmpty)
    }

    @Test func shutDownWhileANextPageLoadsCancelsIt() {
        var harness = onFirstPage()
        _ = harness.goToNextPage()
        #expect(harness.send(.shutDown) == ["stopObserving", "endSession", "complete"])
        #expect(harness.nextPageFetched(Harness.page(2, more: true)).isEmpty)
    }
}

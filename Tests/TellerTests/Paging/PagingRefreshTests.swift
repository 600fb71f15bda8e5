import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Refreshes while paging: a refresh always fetches and saves the first page, resets paging,
/// and never runs at the same time as a next page; a next page asked for meanwhile runs after it.
@Suite struct PagingRefreshTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    private func refresh<DataSource: PagingRepositoryDataSource>(
        _ repository: TellerPagingRepository<DataSource>,
        at time: Int
    ) -> TestableObserver<RefreshResult> {
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(time) {
            _ = try? repository.refresh(force: true).asObservable().subscribe(results)
        }
        return results
    }

    @Test func pullToRefreshOnPageThreeFetchesAndSavesPageOneAsPageOneAndResetsPaging() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"], ["e", "f"], ["g"]]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200, 300)
        env.scheduler.scheduleAt(399) {
            dataSource.respond(with: env.pageNumberServer([["new a", "new b"], ["new c"]]))
        }
        let results = refresh(repository, at: 400)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.dropFirst(7)) == [
                "401: cache [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\"] age 112, refreshing, more",
                "413: cache [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\"] age 412, justFinishedRefresh, more",
                "413: cache [\"new a\", \"new b\"] age 412, more",
            ]
        )
        #expect(results.events == [.next(412, .successful), .completed(412)])
        #expect(dataSource.fetches == ["fetch page 1", "fetch page 2", "fetch page 3", "fetch page 1"])
        #expect(Array(dataSource.log.suffix(4)) == ["fetch page 1", "delete", "save page 1", "observe page 1"])
        #expect(dataSource.cache(for: octocat) == ["new a", "new b"])
        #expect(repository.pagingRequirements == PageNumber(number: 1))
    }

    @Test func aNextPageAskedForDuringARefreshRunsAfterItAgainstTheRefreshedFirstPage() {
        let dataSource = CursorDataSource()
        dataSource.respond(with: env.cursorServer(["a", "b", "c", "d", "e"]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: Cursor(after: nil))
        env.goToNextPage(repository, at: 200)
        env.scheduler.scheduleAt(399) { dataSource.respond(with: env.cursorServer(["x", "y", "a", "b", "c"])) }
        _ = refresh(repository, at: 400)
        env.goToNextPage(repository, at: 405)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.dropFirst(5)) == [
                "401: cache [\"a\", \"b\", \"c\", \"d\"] age 112, refreshing, more",
                "406: cache [\"a\", \"b\", \"c\", \"d\"] age 112, refreshing, more, loadingNextPage",
                "413: cache [\"a\", \"b\", \"c\", \"d\"] age 412, justFinishedRefresh, more, loadingNextPage",
                "413: cache [\"x\", \"y\"] age 412, more, loadingNextPage",
                "426: cache [\"x\", \"y\", \"a\", \"b\"] age 412, more",
            ]
        )
        // The page after the *refreshed* first page, with its cursor.
        #expect(dataSource.fetches == ["fetch after start", "fetch after b", "fetch after start", "fetch after y"])
        #expect(dataSource.cache(for: octocat) == ["x", "y", "a", "b"])
    }

    @Test func aNextPageAskedForDuringAFailedRefreshRunsAgainstThePagesShown() {
        let dataSource = CursorDataSource()
        let server = env.cursorServer(["a", "b", "c", "d", "e"])
        dataSource.respond(with: server)
        let (repository, states) = env.pagingRepository(dataSource, firstPage: Cursor(after: nil))
        env.goToNextPage(repository, at: 200)
        env.scheduler.scheduleAt(399) {
            dataSource.respond { cursor in
                cursor.after == nil ? env.failingPage(TestError(3), after: 10, as: String.self) : server(cursor)
            }
        }
        let results = refresh(repository, at: 400)
        env.goToNextPage(repository, at: 405)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.dropFirst(5)) == [
                "401: cache [\"a\", \"b\", \"c\", \"d\"] age 112, refreshing, more",
                "406: cache [\"a\", \"b\", \"c\", \"d\"] age 112, refreshing, more, loadingNextPage",
                "413: cache [\"a\", \"b\", \"c\", \"d\"] age 112, refreshError TestError(3), more, loadingNextPage",
                "426: cache [\"a\", \"b\", \"c\", \"d\", \"e\"] age 112",
            ]
        )
        #expect(results.events.first?.value.element == .failedError(error: TestError(3)))
        #expect(dataSource.fetches == ["fetch after start", "fetch after b", "fetch after start", "fetch after d"])
    }

    @Test func aNextPageLoadingWhenARefreshStartsIsFetchedAgainAfterIt() {
        let dataSource = PageNumberDataSource()
        let slow = env.pageNumberServer([["a", "b"], ["c", "d"]], after: 50)
        let fast = env.pageNumberServer([["a", "b"], ["c", "d"]])
        dataSource.respond { page in page.number == 1 ? fast(page) : slow(page) }
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200)
        env.scheduler.scheduleAt(209) {
            dataSource.respond(with: env.pageNumberServer([["new a", "new b"], ["new c"]]))
        }
        _ = refresh(repository, at: 210)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.dropFirst(3)) == [
                "201: cache [\"a\", \"b\"] age 112, more, loadingNextPage",
                "211: cache [\"a\", \"b\"] age 112, refreshing, more, loadingNextPage",
                "223: cache [\"a\", \"b\"] age 222, justFinishedRefresh, more, loadingNextPage",
                "223: cache [\"new a\", \"new b\"] age 222, more, loadingNextPage",
                "236: cache [\"new a\", \"new b\", \"new c\"] age 222",
            ]
        )
        // The slow page 2 of the old list was cancelled: it never lands after the new page 1.
        #expect(dataSource.log.filter { $0.hasPrefix("save") } == ["save page 1", "save page 1", "save page 2"])
        #expect(dataSource.cache(for: octocat) == ["new a", "new b", "new c"])
    }

    @Test func aRefreshAskedForWhileANextPageIsSavedStartsAfterTheSave() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"]]))
        env.teller.logger = { event in
            if case .refreshStarted = event { dataSource.note("refresh started") }
        }
        let (repository, _) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200)
        // Page 2 arrives at 211 and is saved at 212: the refresh comes in between.
        let results = refresh(repository, at: 212)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(dataSource.log.suffix(8)) == [
                "fetch page 2", "save page 2", "refresh started", "observe page 2",
                "fetch page 1", "delete", "save page 1", "observe page 1",
            ]
        )
        #expect(results.events.first?.value.element == .successful)
        #expect(dataSource.cache(for: octocat) == ["a", "b"])
    }

    @Test func aFailedFirstPageSaveStartsOverAtTheFirstPageWithNoNextPageUntilARefreshSucceeds() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"], ["e"]]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200)
        env.scheduler.scheduleAt(399) { dataSource.failSaves(with: TestError(9)) }
        _ = refresh(repository, at: 400)
        env.goToNextPage(repository, at: 450)
        env.scheduler.scheduleAt(499) { dataSource.failSaves(with: nil) }
        _ = refresh(repository, at: 500)
        env.goToNextPage(repository, at: 600)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.dropFirst(5)) == [
                "401: cache [\"a\", \"b\", \"c\", \"d\"] age 112, refreshing, more",
                // deleteCache ran, saveCache threw: the data source's cache is now empty.
                "413: cache [\"a\", \"b\", \"c\", \"d\"] age 112, refreshError TestError(9), more",
                "413: cache empty age 112",
                "501: cache empty age 112, refreshing",
                "513: cache empty age 512, justFinishedRefresh",
                "513: cache [\"a\", \"b\"] age 512, more",
                "601: cache [\"a\", \"b\"] age 512, more, loadingNextPage",
                "614: cache [\"a\", \"b\", \"c\", \"d\"] age 512, more",
            ]
        )
        #expect(dataSource.fetches == ["fetch page 1", "fetch page 2", "fetch page 1", "fetch page 1", "fetch page 2"])
    }

    @Test func anotherRepositoryRefreshingTheSameListResetsThisOnesPaging() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"], ["e"]]))
        let (paged, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        let other = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )
        env.goToNextPage(paged, at: 200)
        env.scheduler.scheduleAt(300) { other.requirements = octocat }
        withExtendedLifetime((paged, other)) { env.scheduler.start() }
        // The metadata change resets paging at 314 and reads the cache again (316), so the
        // `areMorePages` shown is the new first page's even if its pages were read before.
        #expect(
            Array(states.timeline.suffix(2)) == [
                "314: cache [\"a\", \"b\"] age 313, more", "315: cache [\"a\", \"b\"] age 313, more",
            ]
        )
        #expect(paged.pagingRequirements == PageNumber(number: 1))
        #expect(dataSource.cache(for: octocat) == ["a", "b"])
    }

    /// Issue 10's refetch storm, for paging: a too-old cache whose first-page save always
    /// throws, observed through an `observeCache` that emits on subscribe (and after every
    /// write), is fetched once, not again after every re-subscription.
    @Test func aFirstPageSaveThatAlwaysThrowsStartsNoFetchesOnItsOwn() {
        let dataSource = PageNumberDataSource()
        dataSource.write(["a", "b", "c"], for: octocat)
        env.markFetched(octocat, at: -10_000, paging: PagingMetadata(areMorePages: true))
        dataSource.failSaves(with: TestError(1))
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        withExtendedLifetime(repository) { env.scheduler.advanceTo(20_000) }
        #expect(dataSource.fetches == ["fetch page 1"])
        #expect(states.states.last?.isRefreshing == false)
        #expect(states.timeline.contains { $0.contains("refreshError TestError(1)") })
    }
}

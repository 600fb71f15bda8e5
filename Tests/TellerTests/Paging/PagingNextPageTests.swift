import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `goToNextPage()`: one fetch per page, appended by the data source, shown as "loading more"
/// apart from refreshes, failures kept apart too and retried by calling it again.
@Suite struct PagingNextPageTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    @Test func nextPageIsFetchedAppendedAndShownLoadingUntilTheCacheShowsIt() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"], ["e"]]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.dropFirst(3)) == [
                "201: cache [\"a\", \"b\"] age 112, more, loadingNextPage",
                "214: cache [\"a\", \"b\", \"c\", \"d\"] age 112, more",
            ]
        )
        #expect(dataSource.fetches == ["fetch page 1", "fetch page 2"])
        #expect(dataSource.cache(for: octocat) == ["a", "b", "c", "d"])
        #expect(repository.pagingRequirements == PageNumber(number: 2))
        // The cache is observed again with the paging requirements of the last page shown.
        #expect(dataSource.log.last == "observe page 2")
        // The cache's age is the first page's: a next page does not make the list fresh.
        #expect(env.store.metadata(forTag: octocat.tag)?.lastFetched == env.date(112))
    }

    @Test func fastRepeatedCallsFetchEachPageOnce() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"], ["e"]]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        // Scrolling fast calls it on every frame: while page 2 loads, and again for page 3.
        env.goToNextPage(repository, at: 200, 200, 201, 205, 211, 212, 213, 300, 300, 301)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.fetches == ["fetch page 1", "fetch page 2", "fetch page 3"])
        #expect(dataSource.cache(for: octocat) == ["a", "b", "c", "d", "e"])
        #expect(
            Array(states.timeline.dropFirst(3)) == [
                "201: cache [\"a\", \"b\"] age 112, more, loadingNextPage",
                "214: cache [\"a\", \"b\", \"c\", \"d\"] age 112, more",
                "301: cache [\"a\", \"b\", \"c\", \"d\"] age 112, more, loadingNextPage",
                "314: cache [\"a\", \"b\", \"c\", \"d\", \"e\"] age 112",
            ]
        )
        #expect(repository.pagingRequirements == PageNumber(number: 3))
    }

    @Test func isIgnoredWhenTheLastPageSaidThereAreNoMore() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"]]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline.last == "113: cache [\"a\", \"b\"] age 112")
        #expect(dataSource.fetches == ["fetch page 1"])
    }

    @Test func isIgnoredWithoutRequirementsAndBeforeAFirstPageExists() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let idle = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        // No requirements at all; then during the first fetch, when nothing says more pages exist.
        env.goToNextPage(idle, at: 50)
        env.goToNextPage(repository, at: 100, 105)
        withExtendedLifetime((idle, repository)) { env.scheduler.start() }
        #expect(dataSource.fetches == ["fetch page 1"])
        #expect(states.timeline.last == "113: cache [\"a\", \"b\"] age 112, more")
    }

    @Test func errorOnPageTwoKeepsThePagesShownApartFromRefreshErrorsThenARetrySucceeds() {
        let dataSource = PageNumberDataSource()
        let server = env.pageNumberServer([["a", "b"], ["c", "d"]])
        let failedOnce = Locked(false)  // set by the first fetch of page 2
        dataSource.respond { page in
            guard page.number == 2 else { return server(page) }
            let isFirstTry = failedOnce.withLock { failed in
                defer { failed = true }
                return !failed
            }
            if isFirstTry {
                return env.failingPage(TestError(2), after: 10, as: Void.self)
            }
            return server(page)
        }
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200, 300)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.dropFirst(3)) == [
                "201: cache [\"a\", \"b\"] age 112, more, loadingNextPage",
                "212: cache [\"a\", \"b\"] age 112, more, nextPageError TestError(2)",
                "301: cache [\"a\", \"b\"] age 112, more, loadingNextPage",
                "314: cache [\"a\", \"b\", \"c\", \"d\"] age 112",
            ]
        )
        let failed = states.events[4].value.element
        #expect(failed?.refreshError == nil)
        #expect(failed?.isRefreshing == false)
        #expect(dataSource.fetches == ["fetch page 1", "fetch page 2", "fetch page 2"])
        #expect(dataSource.cache(for: octocat) == ["a", "b", "c", "d"])
    }

    @Test func saveErrorOnANextPageKeepsThePagesAndTheSamePageIsRetried() {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"]]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.scheduler.scheduleAt(150) { dataSource.failSaves(with: TestError(5)) }
        env.goToNextPage(repository, at: 200)
        env.scheduler.scheduleAt(250) { dataSource.failSaves(with: nil) }
        env.goToNextPage(repository, at: 300)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.dropFirst(3)) == [
                "201: cache [\"a\", \"b\"] age 112, more, loadingNextPage",
                "213: cache [\"a\", \"b\"] age 112, more, nextPageError TestError(5)",
                "301: cache [\"a\", \"b\"] age 112, more, loadingNextPage",
                "314: cache [\"a\", \"b\", \"c\", \"d\"] age 112",
            ]
        )
        #expect(dataSource.log.filter { $0.hasPrefix("save") } == ["save page 1", "save page 2", "save page 2"])
        #expect(env.log.value.contains("saveCache failed for \"Repos for octocat\": TestError(5)"))
        #expect(repository.pagingRequirements == PageNumber(number: 2))
    }

    @Test func aNextPageThatNeverAnswersTimesOut() {
        let dataSource = PageNumberDataSource()
        let server = env.pageNumberServer([["a", "b"], ["c", "d"]])
        dataSource.respond { page in page.number == 1 ? server(page) : .never() }
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        let timedOut = TellerError.fetchTimedOut(tag: octocat.tag, seconds: 60)
        #expect(states.timeline.last == "262: cache [\"a\", \"b\"] age 112, more, nextPageError \(timedOut)")
    }

    /// A next page is fetched by a first page's rules: a failed fetch is tried again after the
    /// retry policy's delay, and the page shows as loading until the last attempt ends.
    @Test func aFailedNextPageIsTriedAgainAsTheRetryPolicySays() throws {
        let env = VirtualTeller(
            retryPolicy: try RetryPolicy(maxRetries: 1, initialDelay: .seconds(30), maxDelay: .seconds(30), jitter: 0)
        )
        let dataSource = PageNumberDataSource()
        let server = env.pageNumberServer([["a", "b"], ["c", "d"]])
        let failedOnce = Locked(false)
        dataSource.respond { page in
            guard page.number == 2, !failedOnce.withLock({ $0 }) else { return server(page) }
            failedOnce.withLock { $0 = true }
            return env.failingPage(TestError(2), after: 10, as: Void.self)
        }
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            Array(states.timeline.dropFirst(3)) == [
                "201: cache [\"a\", \"b\"] age 112, more, loadingNextPage",
                "254: cache [\"a\", \"b\", \"c\", \"d\"] age 112",
            ]
        )
        #expect(dataSource.fetches == ["fetch page 1", "fetch page 2", "fetch page 2"])
    }

    @Test func cursorsComeFromTheLastPageFetched() {
        let dataSource = CursorDataSource()
        dataSource.respond(with: env.cursorServer(["a", "b", "c", "d", "e"]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: Cursor(after: nil))
        env.goToNextPage(repository, at: 200, 300, 400)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.fetches == ["fetch after start", "fetch after b", "fetch after d"])
        #expect(dataSource.nextPageAsks.map { "\($0.0) \($0.1 ?? "nil")" } == ["after start b", "after b d"])
        #expect(states.timeline.last == "314: cache [\"a\", \"b\", \"c\", \"d\", \"e\"] age 112")
        #expect(repository.pagingRequirements == Cursor(after: "d"))
    }
}

import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `areMorePages` and the next-page requirements of the first page survive a relaunch, so a
/// relaunched app can page on from its cached first page.
@Suite struct PagingRelaunchTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    private func json<Value: Encodable>(_ value: Value) -> Data? {
        try? JSONEncoder().encode(value)
    }

    /// The app ran before: two pages cached, the first page fetched at 50 said "more after b".
    private func previousLaunch(_ dataSource: CursorDataSource) {
        dataSource.write(["a", "b", "c", "d"], for: octocat)
        env.markFetched(octocat, at: 50, paging: PagingMetadata(areMorePages: true, nextPageRequirements: json("b")))
    }

    @Test func theFirstPageCarriesItsPagingProgressIntoTheMetadataAndNextPagesDoNotChangeIt() {
        let dataSource = CursorDataSource()
        dataSource.respond(with: env.cursorServer(["a", "b", "c", "d", "e"]))
        let (repository, _) = env.pagingRepository(dataSource, firstPage: Cursor(after: nil))
        let afterFirstPage = Locked<PagingMetadata?>(nil)
        env.scheduler.scheduleAt(150) { [env, octocat] in
            afterFirstPage.withLock { $0 = env.store.metadata(forTag: octocat.tag)?.paging }
        }
        env.scheduler.scheduleAt(200) { repository.goToNextPage() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        let stored = PagingMetadata(areMorePages: true, nextPageRequirements: json("b"))
        #expect(afterFirstPage.value == stored)
        // After page 2 the stored progress is still the first page's: a relaunch shows only it.
        #expect(dataSource.cache(for: octocat) == ["a", "b", "c", "d"])
        #expect(env.store.metadata(forTag: octocat.tag)?.paging == stored)
    }

    @Test func relaunchWithACachedFirstPageShowsMorePagesAtOnceAndPagesOnWithTheStoredCursor() {
        let dataSource = CursorDataSource()
        previousLaunch(dataSource)
        let server = env.cursorServer(["a", "b", "c", "d", "e"])
        // Offline at launch: the first refresh fails; the network is back for the next page.
        dataSource.respond { cursor in
            cursor.after == nil ? env.failingPage(TestError(1), after: 30, as: String.self) : server(cursor)
        }
        let (repository, states) = env.pagingRepository(dataSource, firstPage: Cursor(after: nil))
        env.scheduler.scheduleAt(105) { repository.goToNextPage() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: cache unread age 50, refreshing",
                // Trimmed to the first page before it is read; more pages known before any fetch.
                "103: cache [\"a\", \"b\"] age 50, refreshing, more",
                "106: cache [\"a\", \"b\"] age 50, refreshing, more, loadingNextPage",
                "134: cache [\"a\", \"b\"] age 50, refreshError TestError(1), more, loadingNextPage",
                "147: cache [\"a\", \"b\", \"c\", \"d\"] age 50, more",
            ]
        )
        #expect(Array(dataSource.log.prefix(3)) == ["trim", "observe after start", "fetch after start"])
        #expect(dataSource.fetches == ["fetch after start", "fetch after b"])
        #expect(dataSource.nextPageAsks.map { $0.1 } == ["b"])
    }

    @Test func withoutAutomaticRefreshARelaunchedAppPagesOnAtOnce() {
        let dataSource = CursorDataSource(automaticallyRefresh: false)
        previousLaunch(dataSource)
        dataSource.respond(with: env.cursorServer(["a", "b", "c", "d", "e"]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: Cursor(after: nil))
        env.scheduler.scheduleAt(200) { repository.goToNextPage() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: cache unread age 50",
                "103: cache [\"a\", \"b\"] age 50, more",
                "201: cache [\"a\", \"b\"] age 50, more, loadingNextPage",
                "214: cache [\"a\", \"b\", \"c\", \"d\"] age 50, more",
            ]
        )
        #expect(dataSource.fetches == ["fetch after b"])
        #expect(repository.pagingRequirements == Cursor(after: "b"))
    }

    @Test func voidNextPageRequirementsSurviveARelaunch() {
        // The first launch: page 1 says more pages follow, with `()` as next-page requirements.
        let first = PageNumberDataSource(automaticallyRefresh: true)
        first.respond { page in env.page(["a", "b"], more: true, next: (), after: 10) }
        let (firstRepository, _) = env.pagingRepository(first, firstPage: PageNumber(number: 1))
        withExtendedLifetime(firstRepository) { env.scheduler.start() }
        #expect(env.store.metadata(forTag: octocat.tag)?.paging?.nextPageRequirements != nil)

        // The relaunch, offline: paging on still gets `()`.
        let relaunched = PageNumberDataSource(automaticallyRefresh: false)
        relaunched.write(["a", "b"], for: octocat)
        relaunched.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let repository = TellerPagingRepository(
            dataSource: relaunched,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )
        env.scheduler.scheduleAt(300) { repository.requirements = octocat }
        env.scheduler.scheduleAt(400) { repository.goToNextPage() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(relaunched.nextPageAsks.count == 1)
        #expect(relaunched.nextPageAsks.first?.1 != nil)
        #expect(relaunched.cache(for: octocat) == ["a", "b", "c"])
    }

    @Test func nextPageRequirementsThatAreNotCodableWorkInMemoryAndAreStoredAsNoMorePages() {
        struct Opaque: Sendable {
            let token: String
        }
        let dataSource = InMemoryPagedDataSource<Cursor, Opaque> { _, opaque in Cursor(after: opaque?.token) }
        dataSource.respond { cursor in
            let page = cursor.after == nil ? ["a", "b"] : ["c"]
            return env.page(page, more: cursor.after == nil, next: Opaque(token: page[page.count - 1]), after: 10)
        }
        let (repository, states) = env.pagingRepository(dataSource, firstPage: Cursor(after: nil))
        env.scheduler.scheduleAt(200) { repository.goToNextPage() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        // In this launch paging works: the requirements are kept in memory.
        #expect(states.timeline[2] == "113: cache [\"a\", \"b\"] age 112, more")
        #expect(dataSource.fetches == ["fetch after start", "fetch after b"])
        #expect(dataSource.cache(for: octocat) == ["a", "b", "c"])
        // A relaunch could not build the next page's requirements: it waits for a first page.
        #expect(env.store.metadata(forTag: octocat.tag)?.paging == PagingMetadata(areMorePages: false))
    }

    @Test func storedNextPageRequirementsThatNoLongerDecodeAreReportedAndMeanNoMorePages() {
        let dataSource = CursorDataSource(automaticallyRefresh: false)
        dataSource.write(["a", "b"], for: octocat)
        env.markFetched(octocat, at: 50, paging: PagingMetadata(areMorePages: true, nextPageRequirements: json(42)))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: Cursor(after: nil))
        env.scheduler.scheduleAt(200) { repository.goToNextPage() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline.last == "103: cache [\"a\", \"b\"] age 50")
        #expect(dataSource.fetches.isEmpty)
        #expect(
            env.log.value.contains {
                $0.hasPrefix("could not decode the next-page requirements of \"Repos for octocat\"")
            }
        )
    }

    /// A first page whose save throws leaves an empty cache (the old pages were deleted first):
    /// the stored progress must stop saying more pages exist, or the next session pages on from
    /// nothing. Found by PagingRandomizedTests (seed 13).
    @Test func aFirstPageSaveThatThrowsLeavesNoNextPageForTheNextRequirements() {
        let dataSource = PageNumberDataSource()
        let server = env.pageNumberServer([["a", "b"], ["c", "d"], ["e"]])
        dataSource.respond(with: server)
        let (repository, _) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.scheduler.scheduleAt(200) {
            dataSource.failSaves(with: TestError(9))
            _ = try? repository.refresh(force: true).subscribe()
        }
        env.scheduler.scheduleAt(300) {
            dataSource.failSaves(with: nil)
            // Offline now: the next session's first page fails, and it pages on from what is stored.
            dataSource.respond { page in
                page.number == 1 ? env.failingPage(TestError(1), after: 10, as: Void.self) : server(page)
            }
            repository.requirements = nil
            repository.requirements = octocat
        }
        env.goToNextPage(repository, at: 305)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(env.store.metadata(forTag: octocat.tag)?.paging == PagingMetadata(areMorePages: false))
        #expect(dataSource.fetches == ["fetch page 1", "fetch page 1", "fetch page 1"])
        #expect(dataSource.cache(for: octocat) == nil)
    }
}

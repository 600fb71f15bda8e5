import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// The first page: fetched when requirements are set and on refresh, saved after `deleteCache`,
/// and a cache from earlier trimmed by `persistOnlyFirstPage` before it is first read.
@Suite struct PagingFirstPageTests {
    let env = VirtualTeller()
    let dataSource = PageNumberDataSource()
    let octocat = TestRequirements(username: "octocat")

    private func makeRepository(
        _ dataSource: PageNumberDataSource? = nil
    ) -> (TellerPagingRepository<PageNumberDataSource>, TestableObserver<CacheState<PagedCache<[String]>>>) {
        let repository = TellerPagingRepository(
            dataSource: dataSource ?? self.dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )
        let states = env.scheduler.createObserver(CacheState<PagedCache<[String]>>.self)
        return (repository, states)
    }

    @Test func firstPageIsFetchedWhenRequirementsAreSetAndShownWithAreMorePages() {
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"]]))
        let (repository, states) = makeRepository()
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: noCache, firstFetch",
                "113: cache unread age 112, justFinishedFirstFetch",
                "113: cache [\"a\", \"b\"] age 112, more",
            ]
        )
        #expect(dataSource.log == ["fetch page 1", "delete", "save page 1", "observe page 1"])
        #expect(repository.pagingRequirements == PageNumber(number: 1))
        #expect(env.store.metadata(forTag: octocat.tag)?.paging?.areMorePages == true)
    }

    @Test func aCacheFromEarlierIsTrimmedBeforeItIsReadAndTheFirstPageIsFetchedThoughItIsFresh() {
        dataSource.write(["a", "b", "c", "d"], for: octocat)
        env.markFetched(octocat, at: 50, paging: PagingMetadata(areMorePages: true))
        dataSource.respond(with: env.pageNumberServer([["new a", "new b"], ["new c"]]))
        let (repository, states) = makeRepository()
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: cache unread age 50, refreshing",
                "103: cache [\"a\", \"b\"] age 50, refreshing, more",
                "114: cache [\"a\", \"b\"] age 113, justFinishedRefresh, more",
                "114: cache [\"new a\", \"new b\"] age 113, more",
            ]
        )
        #expect(
            dataSource.log == [
                "trim", "observe page 1", "fetch page 1", "delete", "save page 1", "observe page 1",
            ]
        )
    }

    @Test func withoutAutomaticRefreshTheFirstPageIsFetchedOnRefreshOnly() {
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let (repository, states) = makeRepository(dataSource)
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        env.scheduler.scheduleAt(200) {
            _ = try? repository.refresh(force: false).asObservable().subscribe(results)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: noCache",
                "201: noCache, firstFetch",
                "213: cache unread age 212, justFinishedFirstFetch",
                "213: cache [\"a\", \"b\"] age 212, more",
            ]
        )
        #expect(results.events == [.next(212, .successful), .completed(212)])
        #expect(dataSource.log == ["fetch page 1", "delete", "save page 1", "observe page 1"])
    }

    @Test func aRefreshOfAFreshFirstPageIsSkippedUnlessForced() {
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        let (repository, _) = makeRepository()
        let skipped = env.scheduler.createObserver(RefreshResult.self)
        let forced = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }
        env.scheduler.scheduleAt(200) {
            _ = try? repository.refresh(force: false).asObservable().subscribe(skipped)
        }
        env.scheduler.scheduleAt(300) {
            _ = try? repository.refresh(force: true).asObservable().subscribe(forced)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(skipped.events == [.next(200, .skipped(reason: .dataNotTooOld)), .completed(200)])
        #expect(forced.events == [.next(312, .successful), .completed(312)])
        #expect(dataSource.fetches == ["fetch page 1", "fetch page 1"])
    }

    @Test func aTooOldCacheIsRefreshedAutomaticallyOnlyWhileTheFirstPageAloneIsShown() {
        let onFirstPage = PageNumberDataSource()
        let paged = PageNumberDataSource()
        for dataSource in [onFirstPage, paged] {
            dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"], ["e"]]))
        }
        let (first, firstStates) = makeRepository(onFirstPage)
        let (second, secondStates) = makeRepository(paged)
        // Observed: only a repository that reads its cache sees it emit.
        let subscriptions = [
            first.observe().subscribe(firstStates), second.observe().subscribe(secondStates),
        ]
        env.scheduler.scheduleAt(100) { first.requirements = octocat }
        env.scheduler.scheduleAt(100) { second.requirements = TestRequirements(username: "paged") }
        env.scheduler.scheduleAt(200) { second.goToNextPage() }
        // An hour later both caches emit while too old.
        env.scheduler.scheduleAt(4_000) {
            onFirstPage.write(["written"], for: octocat)
            paged.write(["written"], for: TestRequirements(username: "paged"))
        }
        withExtendedLifetime((first, second, subscriptions)) { env.scheduler.start() }
        #expect(onFirstPage.fetches == ["fetch page 1", "fetch page 1"])
        // The user scrolled to page 2: the list does not jump back to page 1 on its own.
        #expect(paged.fetches == ["fetch page 1", "fetch page 2"])
        #expect(second.pagingRequirements == PageNumber(number: 2))
    }

    @Test func newRequirementsStopTheNextPageAndStartOverAtTheFirstPage() {
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"]], after: 50))
        let (repository, states) = makeRepository()
        let hubot = TestRequirements(username: "hubot")
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        env.scheduler.scheduleAt(200) { repository.goToNextPage() }
        env.scheduler.scheduleAt(220) { repository.requirements = hubot }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.cache(for: octocat) == ["a", "b"])
        #expect(dataSource.cache(for: hubot) == ["a", "b"])
        #expect(repository.pagingRequirements == PageNumber(number: 1))
        #expect(states.timeline.last == "273: cache [\"a\", \"b\"] age 272, more")
        #expect(!dataSource.log.contains("save page 2"))
    }

    /// `TellerRepository(dataSource:)` takes a ``RepositoryDataSource``: a paging data source is
    /// not one, so handing it to a plain repository is a compile error. The cast below is what the
    /// compiler checks.
    @Test func aPagingDataSourceIsNotAPlainDataSourceSoAPlainRepositoryCannotTakeIt() {
        let type: Any.Type = PageNumberDataSource.self
        #expect(!(type is any RepositoryDataSource.Type))
        #expect(type is any PagingRepositoryDataSource.Type)
        #expect(type is any TellerDataSource.Type)
    }

    @Test func repositoryReleasedCompletesObserversAndCancelsItsCallers() {
        dataSource.respond(with: env.pageNumberServer([["a", "b"]], after: 50))
        var repository: TellerPagingRepository<PageNumberDataSource>? = makeRepository().0
        let states = env.scheduler.createObserver(CacheState<PagedCache<[String]>>.self)
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(100) { [weak repository] in
            repository?.requirements = octocat
            _ = repository?.observe().subscribe(states)
            _ = try? repository?.refresh(force: true).asObservable().subscribe(results)
        }
        env.scheduler.advanceTo(120)
        repository = nil
        env.scheduler.start()
        #expect(states.timeline.last == "121: completed")
        #expect(results.events == [.next(120, .skipped(reason: .cancelled)), .completed(120)])
        #expect(!dataSource.log.contains("save page 1"))
    }
}

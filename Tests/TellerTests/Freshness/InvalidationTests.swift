import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `Teller.invalidate(tag:)`, `invalidateAll()` and `clear(tag:)`, through repositories on
/// virtual time. Every cache here was fetched at tick 50 and is fresh for an hour.
@Suite struct InvalidationTests {
    let env = VirtualTeller()
    let dataSource = InMemoryDataSource()
    let octocat = TestRequirements(username: "octocat")
    let hubot = TestRequirements(username: "hubot")

    init() {
        dataSource.write(["old"], for: octocat)
        dataSource.write(["old hubot"], for: hubot)
        env.markFetched(octocat, at: 50)
        env.markFetched(hubot, at: 50)
        let env = env
        dataSource.respond { requirements in env.fetch(["new \(requirements.username)"], after: 10) }
    }

    /// A repository for `requirements`, set at 100 and observed from 100 on (unless `observed`
    /// is false).
    private func repository(
        _ requirements: TestRequirements,
        dataSource: InMemoryDataSource? = nil,
        observed: Bool = true
    ) -> (TellerRepository<InMemoryDataSource>, TestableObserver<CacheState<[String]>>) {
        let repository = TellerRepository(dataSource: dataSource ?? self.dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = requirements
            if observed { _ = repository.observe().subscribe(states) }
        }
        return (repository, states)
    }

    @Test func invalidatingATagRefreshesEveryObservedRepositoryShowingItWithOneFetch() {
        let (first, states) = repository(octocat)
        let (second, secondStates) = repository(octocat)
        env.scheduler.scheduleAt(200) { env.teller.invalidate(tag: octocat.tag) }
        withExtendedLifetime((first, second)) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
        #expect(
            states.timeline == [
                "101: cache unread age 50",
                "101: cache [\"old\"] age 50",
                "201: cache [\"old\"] age 50, refreshing",
                "213: cache [\"old\"] age 212, justFinishedRefresh",
                "213: cache [\"new octocat\"] age 212",
            ]
        )
        #expect(secondStates.timeline.last == "213: cache [\"new octocat\"] age 212")
    }

    @Test func anUnobservedRepositoryRefreshesOnItsNextObserve() {
        let (repository, states) = repository(octocat, observed: false)
        env.scheduler.scheduleAt(200) { env.teller.invalidate(tag: octocat.tag) }
        env.scheduler.scheduleAt(300) { #expect(dataSource.calls.fetches == 0) }
        env.scheduler.scheduleAt(400) { _ = repository.observe().subscribe(states) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
        #expect(states.timeline.last == "413: cache [\"new octocat\"] age 412")
    }

    @Test func anInvalidatedCacheIsRefreshedByAnUnforcedRefreshAndIsFreshAfterIt() {
        let manual = InMemoryDataSource(automaticallyRefresh: false)
        manual.respond { _ in env.fetch(["new"], after: 10) }
        let (repository, _) = repository(octocat, dataSource: manual, observed: false)
        let before = env.scheduler.createObserver(RefreshResult.self)
        let invalidated = env.scheduler.createObserver(RefreshResult.self)
        let after = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(150) { _ = try? repository.refresh(force: false).asObservable().subscribe(before) }
        env.scheduler.scheduleAt(200) {
            env.teller.invalidate(tag: octocat.tag)
            _ = try? repository.refresh(force: false).asObservable().subscribe(invalidated)
        }
        env.scheduler.scheduleAt(300) { _ = try? repository.refresh(force: false).asObservable().subscribe(after) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(before.events.first?.value.element == .skipped(reason: .dataNotTooOld))
        #expect(invalidated.events.first?.value.element == .successful)
        #expect(after.events.first?.value.element == .skipped(reason: .dataNotTooOld))
        #expect(manual.calls.fetches == 1)
    }

    @Test func anObservedRepositoryRefreshesOnInvalidationEvenWithAutomaticRefreshOff() {
        let manual = InMemoryDataSource(automaticallyRefresh: false)
        manual.respond { _ in env.fetch(["new"], after: 10) }
        let (repository, states) = repository(octocat, dataSource: manual)
        env.scheduler.scheduleAt(200) { env.teller.invalidate(tag: octocat.tag) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(manual.calls.fetches == 1)
        #expect(states.timeline.last == "213: cache [\"new\"] age 212")
    }

    @Test func invalidatingATagLeavesOtherTagsAlone() {
        let (first, _) = repository(octocat)
        let (second, hubotStates) = repository(hubot)
        env.scheduler.scheduleAt(200) { env.teller.invalidate(tag: octocat.tag) }
        withExtendedLifetime((first, second)) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
        #expect(hubotStates.timeline.last == "101: cache [\"old hubot\"] age 50")
    }

    @Test func invalidateAllRefreshesEveryObservedTag() {
        let (first, octocatStates) = repository(octocat)
        let (second, hubotStates) = repository(hubot)
        env.scheduler.scheduleAt(200) { env.teller.invalidateAll() }
        withExtendedLifetime((first, second)) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 2)
        #expect(octocatStates.timeline.last == "213: cache [\"new octocat\"] age 212")
        #expect(hubotStates.timeline.last == "213: cache [\"new hubot\"] age 212")
    }

    @Test func aFetchRunningWhenItsTagIsInvalidatedIsFollowedByExactlyOneMore() {
        let (repository, states) = repository(octocat)
        env.scheduler.scheduleAt(200) { _ = try? repository.refresh(force: true).subscribe() }
        // The running fetch may have read the data before it changed.
        env.scheduler.scheduleAt(205) { env.teller.invalidate(tag: octocat.tag) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 2)
        #expect(
            Array(states.timeline.suffix(5)) == [
                "213: cache [\"old\"] age 212, justFinishedRefresh",
                "213: cache [\"old\"] age 212, refreshing",
                "213: cache [\"new octocat\"] age 212, refreshing",
                "225: cache [\"new octocat\"] age 224, justFinishedRefresh",
                "225: cache [\"new octocat\"] age 224",
            ]
        )
    }

    @Test func aFailedRefreshOfAnInvalidatedTagDoesNotStartAnother() {
        let (repository, states) = repository(octocat)
        dataSource.respond { _ in env.failingFetch(TestError(1), after: 10) }
        env.scheduler.scheduleAt(200) { env.teller.invalidate(tag: octocat.tag) }
        withExtendedLifetime(repository) { env.scheduler.advanceTo(50_000) }
        #expect(dataSource.calls.fetches == 1)
        #expect(states.timeline.last == "213: cache [\"old\"] age 50, refreshError TestError(1)")
    }

    @Test func aPagingRepositoryRefreshesItsFirstPageOnInvalidation() {
        let paged = InMemoryPagedDataSource<PageNumber, Void>()
        paged.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        env.markFetched(octocat, at: 50, paging: PagingMetadata(areMorePages: true))
        paged.write(["x", "y"], for: octocat)
        let (repository, states) = env.pagingRepository(paged, firstPage: PageNumber(number: 1))
        env.scheduler.scheduleAt(200) { env.teller.invalidate(tag: octocat.tag) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        // Setting requirements fetches a paging repository's first page (its later pages were
        // trimmed); the invalidation fetches it once more, and the pages are read again only
        // once it saved.
        #expect(paged.fetches == ["fetch page 1", "fetch page 1"])
        #expect(
            Array(states.timeline.suffix(3)) == [
                "201: cache [\"a\", \"b\"] age 113, refreshing, more",
                "213: cache [\"a\", \"b\"] age 212, justFinishedRefresh, more",
                "213: cache [\"a\", \"b\"] age 212, more",
            ]
        )
    }

    /// An invalidation marks the data too old; it replaces no page. Found by
    /// `PagingStressTests` (the store then held a page twice): the repository went back to its
    /// first page at the invalidation, and when the refresh failed it fetched and saved page 2
    /// again on top of the pages still stored.
    @Test func anInvalidatedPagedListWhoseRefreshFailsKeepsItsPagesAndPagesOnFromThem() {
        let paged = PageNumberDataSource()
        let server = env.pageNumberServer([["a", "b"], ["c", "d"], ["e"]])
        paged.respond(with: server)
        let (repository, states) = env.pagingRepository(paged, firstPage: PageNumber(number: 1))
        env.goToNextPage(repository, at: 200)
        env.scheduler.scheduleAt(399) {
            paged.respond { page in
                page.number == 1 ? env.failingPage(TestError(3), after: 10, as: Void.self) : server(page)
            }
        }
        env.scheduler.scheduleAt(400) { env.teller.invalidate(tag: octocat.tag) }
        env.goToNextPage(repository, at: 500)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(paged.fetches == ["fetch page 1", "fetch page 2", "fetch page 1", "fetch page 3"])
        #expect(paged.cache(for: octocat) == ["a", "b", "c", "d", "e"])
        #expect(repository.pagingRequirements == PageNumber(number: 3))
        #expect(states.timeline.last == "514: cache [\"a\", \"b\", \"c\", \"d\", \"e\"] age 113")
    }

    // MARK: clear(tag:)

    @Test func clearingATagShowsNoCacheForItAtOnceAndRefetchesItOnly() {
        let (first, octocatStates) = repository(octocat)
        let (second, hubotStates) = repository(hubot)
        env.scheduler.scheduleAt(200) { env.teller.clear(tag: octocat.tag) }
        withExtendedLifetime((first, second)) { env.scheduler.start() }
        #expect(env.store.metadata(forTag: hubot.tag) != nil)
        #expect(dataSource.calls.fetches == 1)
        #expect(
            Array(octocatStates.timeline.suffix(3)) == [
                "201: noCache, firstFetch",
                "213: cache unread age 212, justFinishedFirstFetch",
                "213: cache [\"new octocat\"] age 212",
            ]
        )
        #expect(hubotStates.timeline.last == "101: cache [\"old hubot\"] age 50")
    }
}

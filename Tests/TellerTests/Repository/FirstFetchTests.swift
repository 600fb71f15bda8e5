import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// The exact states an app sees around the first fetch of a tag.
@Suite struct FirstFetchTests {
    let env = VirtualTeller()
    let dataSource = InMemoryDataSource()
    let octocat = TestRequirements(username: "octocat")

    @Test func firstFetchSucceedsThenTheCacheIsRead() {
        dataSource.respond { _ in env.fetch(["a", "b"], after: 50) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) { _ = repository.observe().subscribe(states) }
        env.scheduler.scheduleAt(200) { repository.requirements = octocat }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "201: noCache, firstFetch",
                "253: cache unread age 252, justFinishedFirstFetch",
                "253: cache [\"a\", \"b\"] age 252",
            ]
        )
        #expect(dataSource.calls.fetches == 1)
        #expect(dataSource.calls.saves == 1)
        #expect(dataSource.cache(for: octocat) == ["a", "b"])
        #expect(env.store.metadata(forTag: octocat.tag)?.lastFetched == env.date(252))
    }

    @Test func theFirstStateAlreadySaysTheFirstFetchIsRunning() {
        dataSource.respond { _ in env.fetch(["a"], after: 50) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(200) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        let first = states.events.first?.value.element
        #expect(first?.isFirstFetch == true)
        #expect(first?.cacheExists == false)
    }

    @Test func firstFetchFailsThenARetrySucceeds() throws {
        dataSource.respond { _ in env.failingFetch(TestError(1), after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        env.scheduler.scheduleAt(300) {
            dataSource.respond { _ in env.fetch(["a"], after: 10) }
            _ = try? repository.refresh(force: false).asObservable().subscribe(results)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: noCache, firstFetch",
                "113: noCache, firstFetchError TestError(1)",
                "301: noCache, firstFetch",
                "313: cache unread age 312, justFinishedFirstFetch",
                "313: cache [\"a\"] age 312",
            ]
        )
        #expect(results.events == [.next(312, .successful), .completed(312)])
        #expect(dataSource.calls.fetches == 2)
    }

    @Test func withoutAutomaticRefreshNothingIsFetchedUntilAsked() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond { _ in env.fetch(["a"], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        env.scheduler.scheduleAt(200) { _ = try? repository.refresh(force: false).subscribe() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: noCache",
                "201: noCache, firstFetch",
                "213: cache unread age 212, justFinishedFirstFetch",
                "213: cache [\"a\"] age 212",
            ]
        )
    }

    @Test func refreshIfNoCacheFetchesWhenThereIsNoCache() {
        dataSource.respond { _ in env.fetch(["a"], after: 10) }
        let repository = TellerRepository(
            dataSource: InMemoryDataSource(automaticallyRefresh: false),
            teller: env.teller
        )
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(100) {
            repository.dataSource.respond { _ in env.fetch(["a"], after: 10) }
            repository.requirements = octocat
            _ = try? repository.refreshIfNoCache().asObservable().subscribe(results)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(results.events == [.next(112, .successful), .completed(112)])
        #expect(repository.dataSource.calls.fetches == 1)
    }

    @Test func refreshWithoutRequirementsThrowsAnErrorThatSaysWhatToDo() {
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        #expect(throws: TellerError.objectPropertiesNotSet(["requirements"])) { try repository.refresh(force: true) }
        #expect(throws: TellerError.objectPropertiesNotSet(["requirements"])) { try repository.refreshIfNoCache() }
        #expect(
            "\(TellerError.objectPropertiesNotSet(["requirements"]))".contains(
                "set `requirements` before calling refresh()"
            )
        )
    }

    @Test func observingWithoutRequirementsEmitsNothingAndFetchesNothing() {
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) { _ = repository.observe().subscribe(states) }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.events.isEmpty)
        #expect(dataSource.calls.fetches == 0)
    }
}

import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Refresh calls made while their repository already waits for a fetch join it without going
/// through the repository's state machine. These pin what each joined caller sees.
@Suite struct JoinedRefreshTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    /// A repository without automatic refresh whose fetch succeeds 50 ticks after it starts.
    private func repository(
        _ dataSource: InMemoryDataSource = InMemoryDataSource(automaticallyRefresh: false)
    ) -> (TellerRepository<InMemoryDataSource>, TestableObservable<FetchResponse<[String], any Error>>) {
        let fetch = env.scheduler.createColdObservable([
            .next(50, FetchResponse<[String], any Error>.success(["a"])), .completed(50),
        ])
        dataSource.respond { _ in fetch.asSingle() }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }
        return (repository, fetch)
    }

    /// Subscribes `refresh(force:)` at `time`; the subscription is kept so a test can dispose it.
    private func refresh(
        _ repository: TellerRepository<InMemoryDataSource>,
        force: Bool = true,
        at time: Int
    ) -> (TestableObserver<RefreshResult>, Locked<(any Disposable)?>) {
        let results = env.scheduler.createObserver(RefreshResult.self)
        let subscription = Locked<(any Disposable)?>(nil)
        env.scheduler.scheduleAt(time) {
            let disposable = try? repository.refresh(force: force).asObservable().subscribe(results)
            subscription.withLock { $0 = disposable }
        }
        return (results, subscription)
    }

    @Test func theFirstCallerLeavingDoesNotStopTheFetchForThoseWhoJoinedIt() {
        let (repository, fetch) = repository()
        let (first, firstSubscription) = refresh(repository, at: 200)
        let (second, _) = refresh(repository, at: 210)
        let (third, _) = refresh(repository, at: 220)
        env.scheduler.scheduleAt(230) { firstSubscription.value?.dispose() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(fetch.subscriptions == [Subscription(201, 251)])
        #expect(first.events.isEmpty)
        #expect(second.events == [.next(252, .successful), .completed(252)])
        #expect(third.events == [.next(252, .successful), .completed(252)])
    }

    @Test func theFetchIsCancelledOnceTheFirstCallerAndEveryJoinedCallerLeft() {
        let (repository, fetch) = repository()
        let callers = [200, 210, 220].map { refresh(repository, at: $0) }
        for (index, caller) in callers.enumerated() {
            env.scheduler.scheduleAt(230 + index * 5) { caller.1.value?.dispose() }
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        // The last caller leaves at 240, and the fetch is disposed then, on the leaving thread.
        #expect(fetch.subscriptions == [Subscription(201, 240)])
        #expect(callers.allSatisfy { $0.0.events.isEmpty })
        #expect(env.log.value.filter { $0.hasPrefix("refresh joined") }.count == 2)
        #expect(env.log.value.filter { $0.hasPrefix("refresh skipped") && $0.hasSuffix("cancelled") }.count == 3)
    }

    @Test func aJoinedCallerLeavingWhileOthersWaitIsTheOnlyOneAnswered() {
        let (repository, fetch) = repository()
        let (first, _) = refresh(repository, at: 200)
        let (second, secondSubscription) = refresh(repository, at: 210)
        let (third, _) = refresh(repository, at: 220)
        env.scheduler.scheduleAt(230) { secondSubscription.value?.dispose() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(fetch.subscriptions == [Subscription(201, 251)])
        #expect(first.events == [.next(252, .successful), .completed(252)])
        #expect(second.events.isEmpty)
        #expect(third.events == [.next(252, .successful), .completed(252)])
    }

    @Test func changingRequirementsAnswersEveryCallerOfTheOldFetchCancelled() {
        let (repository, fetch) = repository()
        let callers = [200, 210, 220].map { refresh(repository, at: $0) }
        env.scheduler.scheduleAt(230) { repository.requirements = TestRequirements(username: "hubot") }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(fetch.subscriptions == [Subscription(201, 230)])
        for caller in callers {
            #expect(caller.0.events == [.next(230, .skipped(reason: .cancelled)), .completed(230)])
        }
    }

    @Test func anUnforcedRefreshDoesNotJoinAForcedFetchOfAFreshCache() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: 50)
        let (repository, fetch) = repository(dataSource)
        let (forced, _) = refresh(repository, force: true, at: 200)
        let (unforced, _) = refresh(repository, force: false, at: 210)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(fetch.subscriptions == [Subscription(201, 251)])
        #expect(forced.events == [.next(252, .successful), .completed(252)])
        #expect(unforced.events == [.next(210, .skipped(reason: .dataNotTooOld)), .completed(210)])
    }

    @Test func anUnforcedRefreshJoinsAFetchOfATooOldCache() {
        let dataSource = InMemoryDataSource(
            maxAgeOfCache: Period(unit: 10, component: .second),
            automaticallyRefresh: false
        )
        dataSource.write(["old"], for: octocat)
        env.markFetched(octocat, at: 50)
        let (repository, fetch) = repository(dataSource)
        let (forced, _) = refresh(repository, force: true, at: 200)
        let (unforced, _) = refresh(repository, force: false, at: 210)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(fetch.subscriptions == [Subscription(201, 251)])
        #expect(forced.events == [.next(252, .successful), .completed(252)])
        #expect(unforced.events == [.next(252, .successful), .completed(252)])
        #expect(env.log.value.filter { $0.hasPrefix("refresh joined") }.count == 1)
    }

    @Test func refreshIfNoCacheDuringTheFirstFetchJoinsIt() {
        let (repository, fetch) = repository()
        let (first, _) = refresh(repository, at: 200)
        let ifNoCache = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(210) {
            _ = try? repository.refreshIfNoCache().asObservable().subscribe(ifNoCache)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(fetch.subscriptions == [Subscription(201, 251)])
        #expect(first.events == [.next(252, .successful), .completed(252)])
        #expect(ifNoCache.events == [.next(252, .successful), .completed(252)])
    }

    @Test func aRefreshAfterTheFetchEndedStartsANewOne() {
        let (repository, fetch) = repository()
        let (first, _) = refresh(repository, at: 200)
        let (second, _) = refresh(repository, at: 300)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(fetch.subscriptions == [Subscription(201, 251), Subscription(301, 351)])
        #expect(first.events == [.next(252, .successful), .completed(252)])
        #expect(second.events == [.next(352, .successful), .completed(352)])
    }

    @Test func requirementsSetWhileTheRepositoryIsBusyReadBackAtOnceAndCanBeRefreshed() {
        let (repository, fetch) = repository()
        let hubot = TestRequirements(username: "hubot")
        let readBack = Locked<String?>(nil)
        let second = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(200) {
            // The answer arrives while the repository processes the end of the fetch, so the
            // new requirements are queued behind it: reading them back must not say otherwise.
            _ = try? repository.refresh(force: true).subscribe(onSuccess: { _ in
                repository.requirements = hubot
                readBack.withLock { $0 = repository.requirements?.username }
                _ = try? repository.refresh(force: true).asObservable().subscribe(second)
            })
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(readBack.value == "hubot")
        #expect(fetch.subscriptions == [Subscription(201, 251), Subscription(253, 303)])
        #expect(second.events == [.next(304, .successful), .completed(304)])
    }
}

import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// One fetch per tag across repositories; each caller gets its own result; cancelling one
/// caller leaves the others alone.
@Suite struct SharedFetchTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    @Test func twoRepositoriesWithOneTagShareOneFetchAndBothShowIt() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { _ in env.fetch(["a"], after: 50) }
        let first = TellerRepository(dataSource: dataSource, teller: env.teller)
        let second = TellerRepository(dataSource: dataSource, teller: env.teller)
        let firstStates = env.scheduler.createObserver(CacheState<[String]>.self)
        let secondStates = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) {
            first.requirements = octocat
            _ = first.observe().subscribe(firstStates)
        }
        env.scheduler.scheduleAt(120) {
            second.requirements = octocat
            _ = second.observe().subscribe(secondStates)
        }
        withExtendedLifetime((first, second)) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
        #expect(dataSource.calls.saves == 1)
        #expect(
            firstStates.timeline == [
                "101: noCache, firstFetch",
                "153: cache unread age 152, justFinishedFirstFetch",
                "153: cache [\"a\"] age 152",
            ]
        )
        #expect(
            secondStates.timeline == [
                "121: noCache, firstFetch",
                "153: cache unread age 152, justFinishedFirstFetch",
                "153: cache [\"a\"] age 152",
            ]
        )
        #expect(env.log.value.filter { $0.hasPrefix("refresh joined") }.count == 1)
    }

    @Test func concurrentRefreshCallsJoinOneFetchAndEachGetsItsResult() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let fetch = env.scheduler.createColdObservable([
            .next(50, FetchResponse<[String], any Error>.success(["a"])), .completed(50),
        ])
        dataSource.respond { _ in fetch.asSingle() }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let results = (0..<3).map { _ in env.scheduler.createObserver(RefreshResult.self) }
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }
        for (index, result) in results.enumerated() {
            env.scheduler.scheduleAt(200 + index * 10) {
                _ = try? repository.refresh(force: true).asObservable().subscribe(result)
            }
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.calls.fetches == 1)
        #expect(fetch.subscriptions == [Subscription(201, 251)])
        for result in results {
            #expect(result.events == [.next(252, .successful), .completed(252)])
        }
    }

    @Test func disposingOneCallerAnswersOnlyItAndTheFetchGoesOn() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let fetch = env.scheduler.createColdObservable([
            .next(50, FetchResponse<[String], any Error>.success(["a"])), .completed(50),
        ])
        dataSource.respond { _ in fetch.asSingle() }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let staying = env.scheduler.createObserver(RefreshResult.self)
        let leaving = env.scheduler.createObserver(RefreshResult.self)
        let leavingSubscription = Locked<(any Disposable)?>(nil)
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }
        env.scheduler.scheduleAt(200) {
            _ = try? repository.refresh(force: true).asObservable().subscribe(staying)
            let subscription = try? repository.refresh(force: true).asObservable().subscribe(leaving)
            leavingSubscription.withLock { $0 = subscription }
        }
        env.scheduler.scheduleAt(220) { leavingSubscription.value?.dispose() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(leaving.events.isEmpty)
        #expect(staying.events == [.next(252, .successful), .completed(252)])
        #expect(fetch.subscriptions == [Subscription(201, 251)])
        #expect(dataSource.cache(for: octocat) == ["a"])
    }

    @Test func theFetchIsCancelledWhenItsLastCallerLeaves() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let fetch = env.scheduler.createColdObservable([
            .next(50, FetchResponse<[String], any Error>.success(["a"])), .completed(50),
        ])
        dataSource.respond { _ in fetch.asSingle() }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let subscription = Locked<(any Disposable)?>(nil)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        env.scheduler.scheduleAt(200) {
            let refresh = try? repository.refresh(force: true).subscribe()
            subscription.withLock { $0 = refresh }
        }
        env.scheduler.scheduleAt(220) { subscription.value?.dispose() }
        withExtendedLifetime(repository) { env.scheduler.start() }
        // The fetch is disposed when its last caller leaves, on the leaving thread: a fetch of the
        // tag that starts next never runs beside it.
        #expect(fetch.subscriptions == [Subscription(201, 220)])
        #expect(dataSource.calls.saves == 0)
        #expect(states.timeline == ["101: noCache", "201: noCache, firstFetch", "221: noCache"])
        #expect(env.log.value.contains { $0.hasPrefix("refresh cancelled for \"Repos for octocat\"") })
    }

    @Test func changingRequirementsMidFetchCancelsTheOldCallerAndNeverSavesUnderTheNewOnes() {
        let dataSource = InMemoryDataSource()
        let hubot = TestRequirements(username: "hubot")
        dataSource.respond { requirements in env.fetch(["repos of \(requirements.username)"], after: 50) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let oldCaller = env.scheduler.createObserver(RefreshResult.self)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
            _ = try? repository.refresh(force: true).asObservable().subscribe(oldCaller)
        }
        env.scheduler.scheduleAt(120) { repository.requirements = hubot }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(oldCaller.events == [.next(120, .skipped(reason: .cancelled)), .completed(120)])
        #expect(dataSource.cache(for: octocat) == nil)
        #expect(dataSource.cache(for: hubot) == ["repos of hubot"])
        #expect(states.events.allSatisfy { $0.value.element.map { $0.requirements?.tag != nil } ?? true })
        #expect(states.timeline.last == "173: cache [\"repos of hubot\"] age 172")
        #expect(states.events.compactMap { $0.value.element?.requirements?.tag }.last == hubot.tag)
    }

    @Test func settingRequirementsToNilStopsAllWork() {
        let dataSource = InMemoryDataSource()
        let fetch = env.scheduler.createColdObservable([
            .next(50, FetchResponse<[String], any Error>.success(["a"])), .completed(50),
        ])
        dataSource.respond { _ in fetch.asSingle() }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        env.scheduler.scheduleAt(120) { repository.requirements = nil }
        withExtendedLifetime(repository) { env.scheduler.start() }
        // The fetch is disposed when its last caller leaves, on the leaving thread: a fetch of the
        // tag that starts next never runs beside it.
        #expect(fetch.subscriptions == [Subscription(101, 120)])
        #expect(dataSource.calls.saves == 0)
        #expect(states.timeline == ["101: noCache, firstFetch"])
        #expect(repository.requirements == nil)
    }

    @Test func releasingTheRepositoryCompletesObserversAndCancelsItsCallers() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let fetch = env.scheduler.createColdObservable([
            .next(50, FetchResponse<[String], any Error>.success(["a"])), .completed(50),
        ])
        dataSource.respond { _ in fetch.asSingle() }
        let states = env.scheduler.createObserver(CacheState<[String]>.self)
        let caller = env.scheduler.createObserver(RefreshResult.self)
        let holder = Locked<TellerRepository<InMemoryDataSource>?>(
            TellerRepository(dataSource: dataSource, teller: env.teller)
        )
        env.scheduler.scheduleAt(100) {
            guard let repository = holder.value else { return }
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
            _ = try? repository.refresh(force: true).asObservable().subscribe(caller)
        }
        env.scheduler.scheduleAt(130) { holder.withLock { $0 = nil } }
        env.scheduler.start()
        #expect(caller.events == [.next(130, .skipped(reason: .cancelled)), .completed(130)])
        #expect(states.timeline == ["101: noCache", "101: noCache, firstFetch", "131: completed"])
        #expect(fetch.subscriptions == [Subscription(101, 130)])
    }
}

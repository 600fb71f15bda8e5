import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `states`: a repository's states as an `AsyncSequence` that never throws, for both kinds of
/// repository, on virtual time.
@Suite struct CacheStateSequenceTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    @Test func startsWithTheCurrentStateGetsEveryChangeAndEndsWhenTheRepositoryIsReleased() async {
        let dataSource = InMemoryDataSource()
        dataSource.respond { [env] _ in env.fetch(["a"], after: 10) }
        var repository: TellerRepository<InMemoryDataSource>? = TellerRepository(
            dataSource: dataSource,
            teller: env.teller
        )
        repository?.requirements = octocat
        // Making the iterator observes the repository; the states it gets are buffered.
        guard var fromTheStart = repository?.states.makeAsyncIterator() else { return }
        env.scheduler.advanceTo(50)
        // A second loop, started later, gets the latest state first.
        guard var late = repository?.states.makeAsyncIterator() else { return }
        env.scheduler.advanceTo(60)
        repository = nil
        env.scheduler.advanceTo(70)

        var seen: [String] = []
        while let state = await fromTheStart.next() {
            seen.append(StateSummary(state).text)
        }
        #expect(
            seen == [
                "noCache, firstFetch",
                "cache unread age 12, justFinishedFirstFetch",
                "cache [\"a\"] age 12",
            ]
        )
        #expect(await late.next().map(StateSummary.init) == StateSummary("cache [\"a\"] age 12"))
        #expect(await late.next() == nil)
    }

    @Test func aPagingRepositorysStatesShowTheNextPage() async {
        let dataSource = PageNumberDataSource()
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c"]]))
        var repository: TellerPagingRepository<PageNumberDataSource>? = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )
        repository?.requirements = octocat
        guard var states = repository?.states.makeAsyncIterator() else { return }
        env.scheduler.advanceTo(50)
        repository?.goToNextPage()
        env.scheduler.advanceTo(100)
        repository = nil
        env.scheduler.advanceTo(110)

        var pages: [[String]?] = []
        var sawLoadingNextPage = false
        while let state = await states.next() {
            pages.append(state.cache?.cache)
            sawLoadingNextPage = sawLoadingNextPage || state.cache?.isLoadingNextPage == true
        }
        #expect(pages.first == .some(nil))
        #expect(pages.last == ["a", "b", "c"])
        #expect(sawLoadingNextPage)
    }

    @Test func cancellingTheIteratingTaskEndsTheLoopAndStopsObserving() async {
        let scheduler = TestScheduler(initialClock: 0)
        let first = CacheState<[String]>.testing.noCache(requirements: octocat) { $0.fetchingFirstTime() }
        let second = CacheState<[String]>.testing.noCache(requirements: octocat)
        let observed = scheduler.createHotObservable([.next(10, first), .next(20, second)])
        let repository = TellerRepositoryMock(dataSource: InMemoryDataSource())
        repository.observeClosure = { observed.asObservable() }
        let (gotOne, gotOneContinuation) = AsyncStream.makeStream(of: Void.self)

        let states = repository.states
        let task = Task {
            var count = 0
            for await _ in states {
                count += 1
                gotOneContinuation.yield()
            }
            return count
        }
        // The loop observes from its start: wait for that, then deliver one state.
        while observed.subscriptions.isEmpty { await Task.yield() }
        scheduler.advanceTo(10)
        for await _ in gotOne { break }
        task.cancel()

        #expect(await task.value == 1)
        #expect(observed.subscriptions == [Subscription(0, 10)])
        scheduler.advanceTo(30)
        #expect(observed.subscriptions == [Subscription(0, 10)])
    }

    @Test func leavingTheLoopStopsObserving() async {
        let disposed = Locked(false)
        let current = BehaviorSubject(value: CacheState<[String]>.testing.noCache(requirements: octocat))
        let repository = TellerRepositoryMock(dataSource: InMemoryDataSource())
        repository.observeClosure = { current.do(onDispose: { disposed.withLock { $0 = true } }) }

        var first: CacheState<[String]>?
        for await state in repository.states {
            first = state
            break
        }

        #expect(first?.cacheExists == false)
        #expect(disposed.value)
        #expect(repository.observeCallsCount == 1)
    }
}

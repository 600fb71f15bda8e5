import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `invalidate(tag:)` refreshes every observed repository showing the tag at once, whatever its
/// state: its first fetch failed, it never fetched (automatic refresh off), or the tag is still
/// marked from an earlier invalidation whose refresh failed (README, "Invalidating and
/// forgetting").
@Suite struct InvalidateObservedRepositoryTests {
    let env = VirtualTeller()
    let requirements = TestRequirements(username: "octocat")

    /// At `ticks`, the fetch starts answering `["fresh"]` and the tag is invalidated.
    private func invalidate(at ticks: Int, answering dataSource: InMemoryDataSource) {
        env.scheduler.scheduleAt(ticks) { [env, requirements] in
            dataSource.respond { _ in env.fetch(["fresh"], after: 10) }
            env.teller.invalidate(tag: requirements.tag)
        }
    }

    /// Runs until every refresh is over, then checks that `fetches` fetches ran and the last
    /// state shows the fresh cache.
    private func expectFresh(
        after fetches: Int,
        of dataSource: InMemoryDataSource,
        _ states: TestableObserver<CacheState<[String]>>
    ) {
        env.scheduler.advanceTo(1_000)
        #expect(dataSource.calls.fetches == fetches, "\(states.timeline)")
        #expect(states.events.last?.value.element?.cache == ["fresh"], "\(states.timeline)")
    }

    @Test func invalidatingRefreshesAnObservedRepositoryWhoseFirstFetchFailed() {
        let dataSource = InMemoryDataSource()
        dataSource.respond { [env] _ in env.failingFetch(TestError(1), after: 10) }
        let (repository, states) = env.repository(dataSource, showing: requirements)
        invalidate(at: 200, answering: dataSource)

        expectFresh(after: 2, of: dataSource, states)
        withExtendedLifetime(repository) {}
    }

    @Test func invalidatingRefreshesAnObservedRepositoryThatNeverFetchedWithAutomaticRefreshOff() {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let (repository, states) = env.repository(dataSource, showing: requirements)
        invalidate(at: 200, answering: dataSource)

        expectFresh(after: 1, of: dataSource, states)
        withExtendedLifetime(repository) {}
    }

    @Test func invalidatingAgainRefreshesWhenTheRefreshOfTheEarlierInvalidationFailed() {
        let dataSource = InMemoryDataSource()
        dataSource.write(["old"], for: requirements)
        env.markFetched(requirements, at: 90)
        dataSource.respond { [env] _ in env.failingFetch(TestError(1), after: 10) }
        let (repository, states) = env.repository(dataSource, showing: requirements)
        env.scheduler.scheduleAt(200) { [env, requirements] in env.teller.invalidate(tag: requirements.tag) }
        invalidate(at: 300, answering: dataSource)

        expectFresh(after: 2, of: dataSource, states)
        withExtendedLifetime(repository) {}
    }

    @Test func invalidatingRefreshesAnObservedPagingRepositoryWhoseFirstFetchFailed() {
        let dataSource = PageNumberDataSource()
        dataSource.respond { [env] _ in env.failingPage(TestError(1), after: 10) }
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.scheduler.scheduleAt(200) { [env, requirements] in
            dataSource.respond(with: env.pageNumberServer([["fresh"]]))
            env.teller.invalidate(tag: requirements.tag)
        }
        env.scheduler.advanceTo(1_000)

        #expect(dataSource.fetches == ["fetch page 1", "fetch page 1"], "\(states.timeline)")
        #expect(states.states.last?.cache?.cache == ["fresh"], "\(states.timeline)")
        withExtendedLifetime(repository) {}
    }

    @Test func invalidatingRefreshesAnObservedPagingRepositoryThatNeverFetchedWithAutomaticRefreshOff() {
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        dataSource.respond(with: env.pageNumberServer([["fresh"]]))
        let (repository, states) = env.pagingRepository(dataSource, firstPage: PageNumber(number: 1))
        env.scheduler.scheduleAt(200) { [env, requirements] in env.teller.invalidate(tag: requirements.tag) }
        env.scheduler.advanceTo(1_000)

        #expect(dataSource.fetches == ["fetch page 1"], "\(states.timeline)")
        #expect(states.states.last?.cache?.cache == ["fresh"], "\(states.timeline)")
        withExtendedLifetime(repository) {}
    }
}

import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Every paged `CacheState.testing` builder equals the state a real `TellerPagingRepository`
/// emits in that situation: each test drives one on virtual time into the situation and
/// compares the emitted state with the builder's output using `==`. The timelines are checked
/// too, so each comparison is known to pick the state it means.
@Suite struct PagedCacheStateTestingTests {
    typealias State = CacheState<PagedCache<[String]>>

    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")
    let builder = State.testing

    /// Sets octocat on a repository over `dataSource` and observes it at 100, lets `script`
    /// schedule more, runs the scheduler to the end and returns what was observed.
    private func observe(
        _ dataSource: PageNumberDataSource,
        script: (TellerPagingRepository<PageNumberDataSource>) -> Void = { _ in }
    ) -> TestableObserver<State> {
        let repository = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )
        let observer = env.scheduler.createObserver(State.self)
        let octocat = self.octocat
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(observer)
        }
        script(repository)
        withExtendedLifetime(repository) { env.scheduler.start() }
        return observer
    }

    private func goToNextPage(_ repository: TellerPagingRepository<PageNumberDataSource>, at time: Int) {
        env.scheduler.scheduleAt(time) { repository.goToNextPage() }
    }

    private func refresh(_ repository: TellerPagingRepository<PageNumberDataSource>, at time: Int) {
        env.scheduler.scheduleAt(time) { _ = try? repository.refresh(force: true).subscribe() }
    }

    /// A data source serving `pages` (10 ticks per fetch).
    private func server(_ pages: [[String]], automaticallyRefresh: Bool = true) -> PageNumberDataSource {
        let dataSource = PageNumberDataSource(automaticallyRefresh: automaticallyRefresh)
        dataSource.respond(with: env.pageNumberServer(pages))
        return dataSource
    }

    /// The app ran before: four items cached, the first page fetched at 50 said more follow.
    private func previousLaunch(automaticallyRefresh: Bool) -> PageNumberDataSource {
        let dataSource = server([["new a", "new b"], ["new c"]], automaticallyRefresh: automaticallyRefresh)
        dataSource.write(["a", "b", "c", "d"], for: octocat)
        env.store.setMetadata(
            FetchMetadata(lastFetched: env.date(50), paging: PagingMetadata(areMorePages: true)),
            forTag: octocat.tag
        )
        return dataSource
    }

    // MARK: Before the first page: the plain no-cache builders

    @Test func noCacheWithoutAFetchIsWhatARepositoryWithoutAutomaticRefreshShows() {
        let states = observe(server([["a", "b"]], automaticallyRefresh: false))
        #expect(states.timeline == ["101: noCache"])
        #expect(states.states[0] == builder.noCache(requirements: octocat))
    }

    @Test func firstFetchRunningIsTheFirstStateOfANeverFetchedList() {
        let states = observe(server([["a", "b"], ["c"]]))
        #expect(states.timeline.first == "101: noCache, firstFetch")
        #expect(states.states[0] == builder.noCache(requirements: octocat) { $0.fetchingFirstTime() })
    }

    @Test func firstFetchFailedIsTheStateAfterAFailingFirstPage() {
        let dataSource = PageNumberDataSource()
        dataSource.respond { _ in env.failingPage(TestError(3), after: 10, as: Void.self) }
        let states = observe(dataSource)
        #expect(states.timeline == ["101: noCache, firstFetch", "113: noCache, firstFetchError TestError(3)"])
        #expect(states.states[1] == builder.noCache(requirements: octocat) { $0.failedFirstFetch(error: TestError(3)) })
    }

    @Test func firstFetchJustSucceededCarriesNoPagingThenTheFirstPageFollowsWithIt() {
        let states = observe(server([["a", "b"], ["c"]]))
        #expect(
            states.timeline == [
                "101: noCache, firstFetch",
                "113: cache unread age 112, justFinishedFirstFetch",
                "113: cache [\"a\", \"b\"] age 112, more",
            ]
        )
        #expect(
            states.states[1]
                == builder.noCache(requirements: octocat) { $0.successfulFirstFetch(timeFetched: env.date(112)) }
        )
        #expect(
            states.states[2]
                == builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
                    $0.cache(["a", "b"])
                    $0.morePages()
                }
        )
    }

    // MARK: Pages shown

    @Test func aSinglePageShowsNoMorePagesWhichIsTheDefault() {
        let states = observe(server([["a", "b"]]))
        #expect(states.timeline.last == "113: cache [\"a\", \"b\"] age 112")
        let expected = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b"])
        }
        #expect(states.states.last == expected)
        #expect(
            states.states.last
                == builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
                    $0.cache(["a", "b"])
                    $0.noMorePages()
                }
        )
    }

    @Test func anEmptyFirstPageShowsNoPagingEvenWhenMorePagesExist() {
        let dataSource = PageNumberDataSource()
        dataSource.respond { _ in env.page([], more: true, next: Void?.none, after: 10) }
        let states = observe(dataSource)
        #expect(states.timeline.last == "113: cache empty age 112")
        let empty = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112))
        #expect(states.states.last == empty)
        #expect(
            states.states.last
                == builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
                    $0.cacheEmpty()
                    $0.morePages()
                }
        )
    }

    @Test func aRelaunchShowsTheCacheUnreadThenItsFirstPageWithTheStoredPaging() {
        let states = observe(previousLaunch(automaticallyRefresh: false))
        #expect(states.timeline == ["101: cache unread age 50", "103: cache [\"a\", \"b\"] age 50, more"])
        #expect(
            states.states[0]
                == builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(50)) { $0.loadingCache() }
        )
        #expect(
            states.states[1]
                == builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(50)) {
                    $0.cache(["a", "b"])
                    $0.morePages()
                }
        )
    }

    @Test func aRelaunchWithAutomaticRefreshShowsTheCacheUnreadAndRefreshing() {
        let states = observe(previousLaunch(automaticallyRefresh: true))
        #expect(
            Array(states.timeline.prefix(2)) == [
                "101: cache unread age 50, refreshing", "103: cache [\"a\", \"b\"] age 50, refreshing, more",
            ]
        )
        let unread = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.loadingCache()
            $0.fetching()
        }
        #expect(states.states[0] == unread)
        let read = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["a", "b"])
            $0.morePages()
            $0.fetching()
        }
        #expect(states.states[1] == read)
    }

    // MARK: Refreshing the first page

    @Test func refreshingIsTheStateWhileAPullToRefreshRuns() {
        let states = observe(server([["a", "b"], ["c"]])) { refresh($0, at: 200) }
        #expect(states.timeline[3] == "201: cache [\"a\", \"b\"] age 112, refreshing, more")
        let refreshing = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b"])
            $0.morePages()
            $0.fetching()
        }
        #expect(states.states[3] == refreshing)
    }

    @Test func refreshJustSucceededKeepsThePagesShownWithTheNewAgeThenTheNewFirstPageFollows() {
        let dataSource = server([["a", "b"], ["c", "d"], ["e"]])
        let states = observe(dataSource) { repository in
            goToNextPage(repository, at: 150)
            env.scheduler.scheduleAt(199) { dataSource.respond(with: env.pageNumberServer([["new a", "new b"]])) }
            refresh(repository, at: 200)
        }
        #expect(
            Array(states.timeline.suffix(3)) == [
                "201: cache [\"a\", \"b\", \"c\", \"d\"] age 112, refreshing, more",
                // The pages shown keep their own "more": the new first page's comes with it.
                "213: cache [\"a\", \"b\", \"c\", \"d\"] age 212, justFinishedRefresh, more",
                "213: cache [\"new a\", \"new b\"] age 212",
            ]
        )
        let justRefreshed = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b", "c", "d"])
            $0.morePages()
            $0.successfulFetch(timeFetched: env.date(212))
        }
        #expect(states.states.dropLast().last == justRefreshed)
        let refreshed = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(212)) {
            $0.cache(["new a", "new b"])
        }
        #expect(states.states.last == refreshed)
    }

    @Test func refreshFailedKeepsThePagesTheirAgeAndTheirPaging() {
        let dataSource = server([["a", "b"], ["c"]])
        let states = observe(dataSource) { repository in
            env.scheduler.scheduleAt(199) {
                dataSource.respond { _ in env.failingPage(TestError(7), after: 10, as: Void.self) }
            }
            refresh(repository, at: 200)
        }
        #expect(states.timeline.last == "213: cache [\"a\", \"b\"] age 112, refreshError TestError(7), more")
        let failed = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b"])
            $0.morePages()
            $0.failedFetch(error: TestError(7))
        }
        #expect(states.states.last == failed)
    }

    // MARK: Next pages

    @Test func loadingNextPageIsTheStateWhileANextPageIsFetched() {
        let states = observe(server([["a", "b"], ["c", "d"], ["e"]])) { goToNextPage($0, at: 200) }
        #expect(states.timeline[3] == "201: cache [\"a\", \"b\"] age 112, more, loadingNextPage")
        let loading = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b"])
            $0.loadingNextPage()
        }
        #expect(states.states[3] == loading)
    }

    @Test func aNextPageWithMoreAfterItShowsMorePagesAndKeepsTheFirstPagesAge() {
        let states = observe(server([["a", "b"], ["c", "d"], ["e"]])) { goToNextPage($0, at: 200) }
        #expect(states.timeline.last == "214: cache [\"a\", \"b\", \"c\", \"d\"] age 112, more")
        let shown = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b", "c", "d"])
            $0.morePages()
        }
        #expect(states.states.last == shown)
    }

    @Test func theLastPageShowsNoMorePages() {
        let states = observe(server([["a", "b"], ["c"]])) { goToNextPage($0, at: 200) }
        #expect(states.timeline.last == "214: cache [\"a\", \"b\", \"c\"] age 112")
        let last = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b", "c"])
            $0.noMorePages()
        }
        #expect(states.states.last == last)
    }

    @Test func nextPageFailedKeepsThePagesAndMorePages() {
        let dataSource = PageNumberDataSource()
        let pages = env.pageNumberServer([["a", "b"], ["c"]])
        dataSource.respond { page in
            page.number == 1 ? pages(page) : env.failingPage(TestError(2), after: 10, as: Void.self)
        }
        let states = observe(dataSource) { goToNextPage($0, at: 200) }
        #expect(states.timeline.last == "212: cache [\"a\", \"b\"] age 112, more, nextPageError TestError(2)")
        let failed = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b"])
            $0.failedNextPage(error: TestError(2))
        }
        #expect(states.states.last == failed)
    }

    @Test func aNextPageWhoseSaveFailedLooksLikeAFailedNextPage() {
        let dataSource = server([["a", "b"], ["c"]])
        let states = observe(dataSource) { repository in
            env.scheduler.scheduleAt(150) { dataSource.failSaves(with: TestError(5)) }
            goToNextPage(repository, at: 200)
        }
        #expect(states.timeline.last == "213: cache [\"a\", \"b\"] age 112, more, nextPageError TestError(5)")
        let failed = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b"])
            $0.failedNextPage(error: TestError(5))
        }
        #expect(states.states.last == failed)
    }

    @Test func aNextPageAskedForDuringARefreshShowsLoadingWhileRefreshing() {
        let states = observe(server([["a", "b"], ["c"]])) { repository in
            refresh(repository, at: 200)
            goToNextPage(repository, at: 205)
        }
        #expect(states.timeline[4] == "206: cache [\"a\", \"b\"] age 112, refreshing, more, loadingNextPage")
        let both = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(112)) {
            $0.cache(["a", "b"])
            $0.fetching()
            $0.loadingNextPage()
        }
        #expect(states.states[4] == both)
    }

    // MARK: The comparisons can fail

    @Test func everyPagedBuilderGivesADifferentState() {
        let age = env.date(50)
        let states: [State] = [
            builder.pagedCache(requirements: octocat, lastTimeFetched: age),
            builder.pagedCache(requirements: octocat, lastTimeFetched: age) { $0.loadingCache() },
            builder.pagedCache(requirements: octocat, lastTimeFetched: age) { $0.cache(["a"]) },
            builder.pagedCache(requirements: octocat, lastTimeFetched: age) {
                $0.cache(["a"])
                $0.morePages()
            },
            builder.pagedCache(requirements: octocat, lastTimeFetched: age) {
                $0.cache(["a"])
                $0.loadingNextPage()
            },
            builder.pagedCache(requirements: octocat, lastTimeFetched: age) {
                $0.cache(["a"])
                $0.failedNextPage(error: TestError(1))
            },
            builder.pagedCache(requirements: octocat, lastTimeFetched: age) {
                $0.cache(["a"])
                $0.fetching()
            },
            builder.pagedCache(requirements: octocat, lastTimeFetched: age) {
                $0.cache(["a"])
                $0.failedFetch(error: TestError(1))
            },
            builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(40)) {
                $0.cache(["a"])
                $0.successfulFetch(timeFetched: age)
            },
            builder.noCache(requirements: octocat),
        ]
        for (index, state) in states.enumerated() {
            for (otherIndex, other) in states.enumerated() where otherIndex != index {
                #expect(state != other, "\(state) should differ from \(other)")
            }
        }
    }

    @Test func loadingAndFailedNextPagesSayMorePagesExist() {
        let loading = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(1)) {
            $0.cache(["a"])
            $0.loadingNextPage()
        }
        #expect(loading.cache == PagedCache(areMorePages: true, cache: ["a"], isLoadingNextPage: true))
        let failed = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(1)) {
            $0.cache(["a"])
            $0.failedNextPage(error: TestError(4))
        }
        #expect(failed.cache == PagedCache(areMorePages: true, cache: ["a"], nextPageError: TestError(4)))
        let otherError = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(1)) {
            $0.cache(["a"])
            $0.failedNextPage(error: TestError(5))
        }
        #expect(failed != otherError)
    }

    @Test func aRefreshOfTheFirstPageIsRefreshingButNotAFirstFetchAndItsErrorIsNoFirstFetchError() {
        let refreshing = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["a"])
            $0.fetching()
        }
        #expect(refreshing.isRefreshing && !refreshing.isFirstFetch)
        let failed = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.cache(["a"])
            $0.failedFetch(error: TestError(4))
        }
        #expect(failed.refreshError as? TestError == TestError(4))
        #expect(failed.errorDuringFirstFetch == nil)
    }

    @Test func theLastCallOfEachKindWins() {
        let state = builder.pagedCache(requirements: octocat, lastTimeFetched: env.date(50)) {
            $0.loadingCache()
            $0.cache(["a"])
            $0.failedFetch(error: TestError(1))
            $0.fetching()
            $0.failedNextPage(error: TestError(2))
            $0.loadingNextPage()
            $0.morePages()
        }
        #expect(state.cache == PagedCache(areMorePages: true, cache: ["a"]))
        #expect(state.isRefreshing)
        #expect(state.refreshError == nil)
        #expect(!state.isLoadingCache)
    }

    @Test func dataStateIsTheOldNameOfTheSameBuilders() {
        let state: DataState<PagedCache<[String]>> = DataState.testing.pagedCache(
            requirements: octocat,
            lastTimeFetched: env.date(1)
        ) {
            $0.cache(["a"])
        }
        #expect(state.cache?.cache == ["a"])
        #expect(state.cacheAge == env.date(1))
    }
}

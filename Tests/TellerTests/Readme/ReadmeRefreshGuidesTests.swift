import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's guides "Automatic refresh and `maxAgeOfCache`", "Refreshing by hand",
// "Only when there is no cache" and "Converting the cache type". Each snippet is copied verbatim
// into a function; the lines marked "around the snippet" are not in the README. The snippets'
// `print` is the local `print` of each test, which records the lines.

private typealias ReposRequirements = GuideReposRequirements
private typealias ReposDataSource = GuideReposDataSource

private let octocat = ReposRequirements(username: "octocat")

/// "Refreshing by hand" (around the snippet: the function and its parameters).
private func forcedRefreshSnippet(
    _ repository: TellerRepository<ReposDataSource>,
    disposeBag: DisposeBag,
    print: @escaping @Sendable (Any) -> Void
) throws {
    try repository.refresh(force: true)
        .subscribe(onSuccess: { result in
            switch result {
            case .successful:
                print("Fetched and saved; observe() shows the new repos.")
            case .failedError(let error):
                print("The refresh failed and the old repos stay: \(error)")
            case .skipped(reason: .dataNotTooOld):
                print("The cache is fresh, nothing fetched.")  // only without force
            case .skipped(reason: .cancelled):
                print("Nobody waits for this refresh any more.")
            }
        })
        .disposed(by: disposeBag)
}

/// "Only when there is no cache" (around the snippet: the function and its parameters).
private func refreshIfNoCacheSnippet(
    _ repository: TellerRepository<ReposDataSource>,
    disposeBag: DisposeBag,
    print: @escaping @Sendable (Any) -> Void
) throws {
    try repository.refreshIfNoCache()
        .subscribe(onSuccess: { result in
            if result.didSucceed {
                print("A cache exists: show the app.")
            } else {
                print("Still no cache (\(result)): offer a retry.")
            }
        })
        .disposed(by: disposeBag)
}

@Suite struct ReadmeRefreshGuidesTests {
    let env = VirtualTeller()

    @Test func periodSnippetPrintsWhatItsCommentsSay() {
        let printed = PrintedLines()
        func print(_ item: Any) { printed.record(item) }  // around the snippet

        let maxAge = Period(unit: 1, component: .day)
        let fetched = Date(timeIntervalSince1970: 0)
        print(maxAge.isTooOld(lastFetched: fetched, now: fetched.addingTimeInterval(23 * 3600)))  // false
        print(maxAge.isTooOld(lastFetched: fetched, now: fetched.addingTimeInterval(24 * 3600)))  // true

        #expect(printed.value == ["false", "true"])
    }

    @Test func automaticRefreshChecksTheAgeOnRequirementsObserveAndEveryCacheEmission() {
        let hours5 = 5 * 3600
        let dataSource = ReposDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let fetchesAt = Locked<[Int: Int]>([:])
        func countFetches(at time: Int) {
            env.scheduler.scheduleAt(time) { fetchesAt.withLock { $0[time] = dataSource.fetchCount } }
        }
        // Fetched at 0 and fresh: neither setting requirements nor observing fetches.
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(0)), forTag: octocat.tag)
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe()
        }
        countFetches(at: 101)
        // Too old, but nothing happens: no timer.
        countFetches(at: hours5 + 50)
        // observe() checks the age.
        env.scheduler.scheduleAt(hours5 + 100) { _ = repository.observe().subscribe() }
        countFetches(at: hours5 + 110)
        // So does every emission of the cache, once it is too old again.
        env.scheduler.scheduleAt(2 * hours5 + 200) { dataSource.saved.onNext(["changed elsewhere"]) }
        countFetches(at: 2 * hours5 + 210)
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(fetchesAt.value == [101: 0, hours5 + 50: 0, hours5 + 110: 1, 2 * hours5 + 210: 2])
    }

    @Test func settingRequirementsNeverFetchedStartsTheFirstFetch() {
        let dataSource = ReposDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(dataSource.fetchCount == 1)
    }

    @Test func forcedRefreshJoinsTheFetchInFlightThenFetchesEvenWhenFresh() {
        let printed = PrintedLines(clock: { [scheduler = env.scheduler] in scheduler.clock })
        let dataSource = ReposDataSource(fetch: { [env] in env.fetch(["teller"], after: 10) })
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let disposeBag = DisposeBag()
        let results = env.scheduler.createObserver(RefreshResult.self)
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }  // automatic first fetch
        env.scheduler.scheduleAt(102) {
            try? forcedRefreshSnippet(repository, disposeBag: disposeBag, print: printed.record)
        }
        env.scheduler.scheduleAt(200) {
            try? forcedRefreshSnippet(repository, disposeBag: disposeBag, print: printed.record)
        }
        env.scheduler.scheduleAt(300) {
            _ = try? repository.refresh(force: false).asObservable().subscribe(results)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(
            printed.value == [
                "112: Fetched and saved; observe() shows the new repos.",
                "212: Fetched and saved; observe() shows the new repos.",
            ]
        )
        #expect(dataSource.fetchCount == 2)
        #expect(results.events.first?.value.element == .skipped(reason: .dataNotTooOld))
    }

    @Test func disposingOneCallerLeavesTheFetchToTheOthersAndNewRequirementsCancelPendingCallers() {
        let printed = PrintedLines(clock: { [scheduler = env.scheduler] in scheduler.clock })
        let dataSource = ReposDataSource(fetch: { [env] in env.fetch(["teller"], after: 10) })
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let bags = Locked([DisposeBag(), DisposeBag(), DisposeBag()])
        env.scheduler.scheduleAt(50) {
            env.store.setMetadata(FetchMetadata(lastFetched: env.date(50)), forTag: octocat.tag)
            repository.requirements = octocat
        }
        env.scheduler.scheduleAt(100) {
            try? forcedRefreshSnippet(repository, disposeBag: bags.value[0], print: printed.record)
            try? forcedRefreshSnippet(repository, disposeBag: bags.value[1], print: printed.record)
        }
        env.scheduler.scheduleAt(102) { bags.withLock { $0[0] = DisposeBag() } }  // the first caller leaves
        env.scheduler.scheduleAt(200) {
            try? forcedRefreshSnippet(repository, disposeBag: bags.value[2], print: printed.record)
        }
        env.scheduler.scheduleAt(202) { repository.requirements = ReposRequirements(username: "levibostian") }
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(
            printed.value == [
                "112: Fetched and saved; observe() shows the new repos.",
                "202: Nobody waits for this refresh any more.",
            ]
        )
    }

    @Test func refreshIfNoCacheJoinsTheFirstFetchThenAnswersAtOnceEvenWhenTheCacheIsOld() {
        let printed = PrintedLines(clock: { [scheduler = env.scheduler] in scheduler.clock })
        let dataSource = ReposDataSource(fetch: { [env] in env.fetch(["teller"], after: 10) })
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let disposeBag = DisposeBag()
        env.scheduler.scheduleAt(100) { repository.requirements = octocat }  // automatic first fetch
        env.scheduler.scheduleAt(101) {
            try? refreshIfNoCacheSnippet(repository, disposeBag: disposeBag, print: printed.record)
        }
        env.scheduler.scheduleAt(100_000) {  // more than 5 hours later: too old
            try? refreshIfNoCacheSnippet(repository, disposeBag: disposeBag, print: printed.record)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(printed.value == ["112: A cache exists: show the app.", "100000: A cache exists: show the app."])
        #expect(dataSource.fetchCount == 1)
    }

    @Test func refreshIfNoCacheReportsAFailedFirstFetch() {
        let printed = PrintedLines()
        let dataSource = ReposDataSource(fetch: { [env] in env.failingFetch(TestError(1), after: 10) })
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        let disposeBag = DisposeBag()
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            try? refreshIfNoCacheSnippet(repository, disposeBag: disposeBag, print: printed.record)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(printed.value == ["Still no cache (\(RefreshResult.failedError(error: TestError(1)))): offer a retry."])
    }

    @Test func convertKeepsTheStateAndMapsTheCache() {
        let dataSource = ReposDataSource(fetch: { [env] in env.fetch(["teller"], after: 10) })
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(0)), forTag: octocat.tag)
        dataSource.saved.onNext(["teller"])
        repository.requirements = octocat

        struct RepoRow: Sendable {
            let title: String
        }

        let rows: Observable<CacheState<[RepoRow]>> = repository.observe()
            .map { state in
                state.convert { repos in repos?.map { RepoRow(title: $0.uppercased()) } }
            }

        let original = env.scheduler.createObserver(CacheState<[String]>.self)
        let converted = env.scheduler.createObserver(CacheState<[RepoRow]>.self)
        env.scheduler.scheduleAt(100) {
            _ = repository.observe().subscribe(original)
            _ = rows.subscribe(converted)
            _ = try? repository.refresh(force: true).subscribe()
        }
        withExtendedLifetime(repository) { env.scheduler.start() }

        let states = original.events.compactMap(\.value.element)
        let rowStates = converted.events.compactMap(\.value.element)
        #expect(rowStates.count == states.count)
        #expect(rowStates.map { $0.cache?.map(\.title) } == states.map { $0.cache?.map { $0.uppercased() } })
        #expect(rowStates.map(\.isRefreshing) == states.map(\.isRefreshing))
        #expect(rowStates.map(\.cacheAge) == states.map(\.cacheAge))
        #expect(rowStates.contains { $0.isRefreshing && $0.cache?.first?.title == "TELLER" })
    }
}

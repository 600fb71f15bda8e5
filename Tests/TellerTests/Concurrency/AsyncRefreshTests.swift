import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `refreshResult(force:)` and `refreshIfNoCacheResult()`: the `async` refreshes beside the
/// `Single` ones, for both kinds of repository; a cancelled task is a cancelled refresh.
@Suite struct AsyncRefreshTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    @Test func refreshResultAnswersWhatTheRefreshDid() async throws {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond { _ in .just(.success(["a"])) }
        let repository = TellerRepository(dataSource: dataSource, teller: makeRealTeller())
        repository.requirements = octocat

        #expect(try await repository.refreshResult(force: true) == .successful)
        #expect(dataSource.cache(for: octocat) == ["a"])
        #expect(try await repository.refreshResult(force: false) == .skipped(reason: .dataNotTooOld))
        dataSource.respond { _ in .just(.failure(TestError(1))) }
        #expect(try await repository.refreshResult(force: true) == .failedError(error: TestError(1)))
        #expect(dataSource.calls.fetches == 2)
    }

    @Test func refreshIfNoCacheResultFetchesOnlyWithoutACache() async throws {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond { _ in .just(.success(["a"])) }
        let repository = TellerRepository(dataSource: dataSource, teller: makeRealTeller())
        repository.requirements = octocat

        #expect(try await repository.refreshIfNoCacheResult() == .successful)
        #expect(try await repository.refreshIfNoCacheResult() == .successful)
        #expect(dataSource.calls.fetches == 1)
    }

    @Test func aPagingRepositoryRefreshesItsFirstPageAsynchronously() async throws {
        let dataSource = PageNumberDataSource(automaticallyRefresh: false)
        let page = PagedFetchResponse<[String], Void>(
            areMorePages: false,
            nextPageRequirements: nil,
            fetchResponse: ["a"]
        )
        dataSource.respond { _ in .just(.success(page)) }
        let repository = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: makeRealTeller()
        )
        repository.requirements = octocat

        #expect(try await repository.refreshIfNoCacheResult() == .successful)
        #expect(try await repository.refreshResult(force: true) == .successful)
        #expect(dataSource.fetches == ["fetch page 1", "fetch page 1"])
        #expect(dataSource.cache(for: octocat) == ["a"])
    }

    @Test func withoutRequirementsBothThrowObjectPropertiesNotSet() async {
        let repository = TellerRepository(dataSource: InMemoryDataSource(), teller: env.teller)
        await #expect(throws: TellerError.objectPropertiesNotSet(["requirements"])) {
            try await repository.refreshResult(force: true)
        }
        await #expect(throws: TellerError.objectPropertiesNotSet(["requirements"])) {
            try await repository.refreshIfNoCacheResult()
        }
    }

    @Test func cancellingTheAwaitingTaskAnswersSkippedCancelledAndCancelsTheFetch() async throws {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        let fetch = env.scheduler.createColdObservable([
            .next(100, FetchResponse<[String], any Error>.success(["a"])), .completed(100),
        ])
        dataSource.respond { _ in fetch.asSingle() }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        repository.requirements = octocat

        let task = Task { try await repository.refreshResult(force: true) }
        // Wait until the refresh has joined a fetch, then let the fetch start on virtual time.
        while !env.log.value.contains(where: { $0.hasPrefix("refresh started") }) { await Task.yield() }
        env.scheduler.advanceTo(10)
        task.cancel()

        #expect(try await task.value == .skipped(reason: .cancelled))
        env.scheduler.advanceTo(200)
        // The fetch was subscribed on the background scheduler one tick after it was asked for,
        // and disposed at the cancellation, long before its response at 100.
        #expect(fetch.subscriptions == [Subscription(1, 10)])
        #expect(dataSource.calls.saves == 0)
        #expect(env.log.value.contains { $0.hasPrefix("refresh cancelled") })
    }

    @Test func aRefreshAwaitedInACancelledTaskIsSkippedAndNeverFetches() async throws {
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond { [env] _ in env.fetch(["a"], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        repository.requirements = octocat

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await repository.refreshResult(force: true)
        }

        #expect(try await task.value == .skipped(reason: .cancelled))
        env.scheduler.advanceTo(100)
        #expect(dataSource.calls.fetches == 0)
        #expect(dataSource.cache(for: octocat) == nil)
    }
}

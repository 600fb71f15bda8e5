import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Teller from Swift concurrency: awaiting refreshes, iterating states, and `async` fetches.
@Suite struct AsyncAwaitTests {
    final class AsyncDataSource: AsyncRepositoryDataSource, @unchecked Sendable {
        // @unchecked: `inner` is thread-safe.
        typealias Cache = [String]
        typealias Requirements = TestRequirements
        typealias FetchResult = [String]
        typealias FetchError = any Error

        let inner = InMemoryDataSource()
        let maxAgeOfCache = Period(unit: 1, component: .hour)
        let fetchStarted = Locked(0)
        let fetchCancelled = Locked(false)
        let automaticallyRefresh: Bool
        let result: Result<[String], any Error>
        let hang: Bool

        init(
            result: Result<[String], any Error> = .success(["from async"]),
            hang: Bool = false,
            automaticallyRefresh: Bool = true
        ) {
            self.result = result
            self.hang = hang
            self.automaticallyRefresh = automaticallyRefresh
        }

        func fetchFreshCache(requirements: TestRequirements) async throws -> FetchResponse<[String], any Error> {
            fetchStarted.withLock { $0 += 1 }
            if hang {
                do {
                    while true { try await Task.sleep(nanoseconds: 1_000_000_000) }
                } catch {
                    fetchCancelled.withLock { $0 = true }
                    throw error
                }
            }
            return result
        }

        func saveCache(_ cache: [String], requirements: TestRequirements) throws {
            try inner.saveCache(cache, requirements: requirements)
        }

        func observeCache(requirements: TestRequirements) -> Observable<[String]> {
            inner.observeCache(requirements: requirements)
        }

        func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
            cache.isEmpty
        }
    }

    @Test func awaitingARefreshOfAnAsyncDataSourceSavesItsResult() async throws {
        let dataSource = AsyncDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: makeRealTeller())
        repository.requirements = TestRequirements(username: "octocat")
        let result = try await repository.refresh(force: true).value
        #expect(result == .successful)
        #expect(dataSource.inner.cache(for: TestRequirements(username: "octocat")) == ["from async"])
    }

    @Test func aThrowingAsyncFetchIsAFailedRefresh() async throws {
        let dataSource = AsyncDataSource(result: .failure(TestError(3)))
        let repository = TellerRepository(dataSource: dataSource, teller: makeRealTeller())
        repository.requirements = TestRequirements(username: "octocat")
        let result = try await repository.refresh(force: true).value
        #expect(result == .failedError(error: TestError(3)))
    }

    @Test func statesCanBeIteratedWithForAwait() async throws {
        let dataSource = AsyncDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: makeRealTeller())
        repository.requirements = TestRequirements(username: "octocat")
        var seen: [String] = []
        for try await state in repository.observe().values {
            seen.append(state.isFirstFetch ? "firstFetch" : (state.cache.map { "\($0)" } ?? "no data"))
            // Stop on the data or on a failed fetch, so a failure ends the test instead of hanging it.
            if state.cache == ["from async"] || state.fetchError != nil { break }
        }
        #expect(seen.first == "firstFetch")
        #expect(seen.last == "[\"from async\"]")
    }

    @Test func cancellingTheAwaitingTaskCancelsTheAsyncFetch() async throws {
        // No automatic refresh: it would be a second caller keeping the fetch alive.
        let dataSource = AsyncDataSource(hang: true, automaticallyRefresh: false)
        let repository = TellerRepository(dataSource: dataSource, teller: makeRealTeller())
        let requirements = TestRequirements(username: "octocat")
        repository.requirements = requirements
        let refresh = try repository.refresh(force: true)
        let task = Task { try await refresh.value }
        while dataSource.fetchStarted.value == 0 { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        while !dataSource.fetchCancelled.value { await Task.yield() }
        #expect(dataSource.inner.cache(for: requirements) == nil)
    }
}

import Foundation
import Teller
import TellerTestSupport
import TellerTesting
import Testing

/// `CacheState` (of either kind of repository) and `RefreshResult` are `Sendable`, errors
/// included: they cross into tasks and actors unchanged. (Not compiling is the first way this
/// fails.)
@Suite struct SendableStatesTests {
    private actor Inbox<Value: Sendable> {
        var received: [Value] = []

        func receive(_ value: Value) {
            received.append(value)
        }
    }

    @Test func statesAndResultsWithErrorsCrossIntoAnActorUnchanged() async {
        let requirements = TestRequirements(username: "octocat")
        let failed = CacheState<[String]>.testing.cache(requirements: requirements, lastTimeFetched: Date()) {
            $0.cache(["a"])
            $0.failedFetch(error: TestError(1))
        }
        let paged = failed.convert { $0.map { PagedCache(areMorePages: true, cache: $0) } }
        let result = RefreshResult.failedError(error: TestError(2))

        let states = Inbox<CacheState<[String]>>()
        let pagedStates = Inbox<CacheState<PagedCache<[String]>>>()
        let results = Inbox<RefreshResult>()
        await Task.detached {
            await states.receive(failed)
            await pagedStates.receive(paged)
            await results.receive(result)
        }.value

        #expect(await states.received == [failed])
        #expect(await pagedStates.received.first?.cache?.cache == ["a"])
        #expect(await pagedStates.received.first?.refreshError.map { "\($0)" } == "\(TestError(1))")
        #expect(await results.received == [.failedError(error: TestError(2))])
    }
}

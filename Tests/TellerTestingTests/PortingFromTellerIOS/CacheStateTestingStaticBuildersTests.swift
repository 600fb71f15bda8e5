import Foundation
import Teller
import TellerTestSupport
import TellerTesting
import Testing

/// Teller-iOS's tests build states with the static `CacheStateTesting.noCache(requirements:more:)`
/// and `CacheStateTesting.cache(requirements:lastTimeFetched:more:)`; they build exactly what
/// `CacheState.testing` builds.
@Suite struct CacheStateTestingStaticBuildersTests {
    let requirements = TestRequirements(username: "")
    let timeFetched = Date(timeIntervalSince1970: 100)

    @Test func staticNoCacheBuildsWhatTheInstanceBuilderBuilds() {
        let fetching: CacheState<String> = CacheStateTesting.noCache(requirements: requirements) {
            $0.fetchingFirstTime()
        }
        let never: CacheState<String> = CacheStateTesting.noCache(requirements: requirements)

        #expect(fetching == CacheState<String>.testing.noCache(requirements: requirements) { $0.fetchingFirstTime() })
        #expect(fetching.isFirstFetch)
        #expect(never == CacheState<String>.testing.noCache(requirements: requirements))
        #expect(!never.cacheExists && !never.isRefreshing)
    }

    @Test func staticCacheBuildsWhatTheInstanceBuilderBuilds() {
        let refreshing: CacheState<String> = CacheStateTesting.cache(
            requirements: requirements,
            lastTimeFetched: timeFetched
        ) {
            $0.cache("cache")
            $0.fetching()
        }

        let expected = CacheState<String>.testing.cache(requirements: requirements, lastTimeFetched: timeFetched) {
            $0.cache("cache")
            $0.fetching()
        }
        #expect(refreshing == expected)
        #expect(refreshing.cache == "cache")
        #expect(refreshing.isRefreshing)
        #expect(refreshing.cacheAge == timeFetched)
    }
}

import Foundation
import Teller
import TellerTestSupport
import Testing

/// Teller-iOS's `PagedCacheState` and its paged `convert`, as its example app uses them:
/// `observe().map { $0.convert { repos -> [String]? in repos?.map { $0.name } } }`.
@Suite struct PagedCacheStateConvertTests {
    let requirements = TestRequirements(username: "octocat")
    let fetched = Date(timeIntervalSince1970: 1_000)

    private func state(_ paged: PagedCache<[Int]>?, refreshing: Bool = false) -> PagedCacheState<[Int]> {
        CacheState(state: .cache(cache: paged, cacheAge: fetched), requirements: requirements, isRefreshing: refreshing)
    }

    @Test func convertChangesThePagesAndKeepsThePagingAndTheFlags() {
        let given = state(
            PagedCache(areMorePages: true, cache: [1, 2], isLoadingNextPage: true, nextPageError: TestError(4)),
            refreshing: true
        )

        let actual: PagedCacheState<[String]> = given.convert { (numbers: [Int]?) -> [String]? in
            numbers?.map(String.init)
        }

        #expect(actual.cache?.cache == ["1", "2"])
        #expect(actual.cache?.areMorePages == true)
        #expect(actual.cache?.isLoadingNextPage == true)
        #expect(actual.cache?.nextPageError as? TestError == TestError(4))
        #expect(actual.cacheAge == fetched)
        #expect(actual.isRefreshing)
        #expect(actual.cacheExists)
    }

    @Test func convertIsNotCalledWithoutPagesAndTheResultHasNone() {
        var calls = 0

        let noPages = state(nil).convert { (numbers: [Int]?) -> [String]? in
            calls += 1
            return numbers?.map(String.init)
        }
        let noCache = PagedCacheState<[Int]>(state: .noCache, requirements: requirements).convert {
            (numbers: [Int]?) -> [String]? in
            calls += 1
            return numbers?.map(String.init)
        }

        #expect(calls == 0)
        #expect(noPages.cache == nil && noPages.cacheExists)
        #expect(noCache.cache == nil && !noCache.cacheExists)
    }

    @Test func aConvertThatAnswersNilLeavesTheStateWithoutPages() {
        let actual = state(PagedCache(areMorePages: true, cache: [1])).convert { (_: [Int]?) -> [String]? in nil }

        #expect(actual.cache == nil)
        #expect(actual.cacheExists)
    }

    @Test func pagedCacheStateIsTheStateAPagingRepositoryEmits() {
        #expect(PagedCacheState<[Int]>.self == CacheState<PagedCache<[Int]>>.self)
    }
}

import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A repository whose `FileCacheStore` was made with another `Teller` (the README's store
/// snippet without `teller:` uses `Teller.shared`) says so at once, instead of working until a
/// purged file leaves it stuck at `cacheReadError`.
@Suite struct CacheStoreOnAnotherTellerTests {
    let env = VirtualTeller()
    let folder = TemporaryFolder()
    let octocat = TestRequirements(username: "octocat")

    @Test func aRepositoryOnAnotherTellerThanItsStoreLogsItWhenCreatedAndShowsTheErrorInsteadOfACache() throws {
        defer { folder.remove() }
        let other = VirtualTeller()
        let store = try FileCacheStore<[String]>(directory: folder.url, teller: other.teller)
        try store.save(["a"], tag: octocat.tag)
        env.markFetched(octocat, at: 0)
        let dataSource = CodableReposDataSource(cacheStore: store)
        let expected = FileCacheStoreError.differentTeller(path: folder.url.path)

        let (repository, states) = env.repository(dataSource, showing: octocat)
        #expect(env.log.value == [expected.description])

        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == ["101: cache unread age 0", "101: cache unreadable age 0, cacheReadError \(expected)"]
        )
        #expect(dataSource.fetchCount == 0)
    }

    @Test func aRepositoryOnItsStoresTellerReadsTheCache() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.url, teller: env.teller)
        try store.save(["a"], tag: octocat.tag)
        env.markFetched(octocat, at: 0)

        let (repository, states) = env.repository(CodableReposDataSource(cacheStore: store), showing: octocat)
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(states.timeline.last?.hasSuffix(": cache [\"a\"] age 0") == true, "\(states.timeline)")
        #expect(env.log.value.isEmpty)
    }
}

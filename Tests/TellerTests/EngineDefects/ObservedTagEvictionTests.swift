import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A tag a live, observed repository shows is in use, so a `FileCacheStore` with a size limit
/// never evicts it — at no moment, including while the repository saves what it fetched (the
/// README: "a tag a live repository shows is in use and stays").
@Suite struct ObservedTagEvictionTests {
    let env = VirtualTeller()
    let folder = TemporaryFolder()

    private func list(of tag: String) -> [String] {
        (1...20).map { "repository \($0) of \(tag)" }
    }

    /// The size of one list's file, so the limit can be set in lists.
    private func fileSizeOfOneList() throws -> Int {
        let probe = folder.child("probe")
        try FileCacheStore<[String]>(directory: probe, teller: env.teller).save(list(of: "a"), tag: "a")
        return fileSize(try #require(folder.cacheFiles(in: probe).first))
    }

    @Test func twoObservedTagsOpenedAtOnceAreNeverEvictedByEachOthersSave() throws {
        defer { folder.remove() }
        let size = try fileSizeOfOneList()
        let store = try FileCacheStore<[String]>(
            directory: folder.child("cache"),
            maxTotalBytes: size * 3 / 2,
            teller: env.teller
        )
        let users = ["a", "b"]
        let shown = users.map { user in
            let dataSource = CodableReposDataSource(cacheStore: store)
            let requirements = TestRequirements(username: user)
            dataSource.fetch = { [env] _, _ in env.fetch(list(of: requirements.tag), after: 10) }
            return (dataSource, env.repository(dataSource, showing: requirements, at: 100))
        }
        env.scheduler.advanceTo(1_000)

        for (dataSource, (repository, states)) in shown {
            let tag = try #require(repository.requirements?.tag)
            #expect(dataSource.fetchCount == 1, "\(tag) was fetched again: \(states.timeline)")
            #expect(store.load(tag: tag) == list(of: tag))
            #expect(states.events.last?.value.element?.cache == list(of: tag), "\(states.timeline)")
        }
        #expect(!env.log.value.contains { $0.contains("evicted") }, "\(env.log.value)")
    }
}

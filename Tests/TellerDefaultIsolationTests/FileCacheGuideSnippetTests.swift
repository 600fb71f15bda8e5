import Dispatch
import Foundation
import Teller
import TellerRx
import TellerTesting
import Testing

// The README's file cache guide as a new Xcode 26 app target compiles it.

private struct ReposRequirements: RepositoryRequirements {
    let username: String
    var tag: String { "Repos for \(username)" }
}

private final class ReposDataSource: CodableRepositoryDataSource {
    let maxAgeOfCache = Period(unit: 5, component: .hour)
    let cacheStore: FileCacheStore<[String]>

    init(cacheStore: FileCacheStore<[String]>) {
        self.cacheStore = cacheStore
    }

    func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[String], any Error>> {
        .just(.success(["teller", "teller-android"]))  // your network call goes here
    }
}

private func fileCacheStatements() throws {
    let store = try FileCacheStore<[String]>(
        directory: FileCacheStore<[String]>.defaultDirectory(named: "repos"),  // under the caches directory
        maxTotalBytes: 20_000_000,  // past 20 MB, the least recently used lists go
        maxUnusedAge: Period(unit: 30, component: .day)  // and so do lists nobody opened for 30 days
    )
    let repository = TellerRepository(dataSource: ReposDataSource(cacheStore: store))
    _ = repository  // around the snippets
    try store.removeAll()
    Teller.shared.clear()
}

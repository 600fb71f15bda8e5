import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A fresh folder for one test, in the temporary directory.
struct TemporaryFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "teller-cache-store-\(UUID().uuidString)",
        isDirectory: true
    )

    /// The folder for a store of its own, inside this one (not created).
    func child(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: true)
    }

    /// The names in `folder` (this folder by default), sorted, hidden ones included.
    func names(in folder: URL? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: (folder ?? url).path)) ?? []).sorted()
    }

    /// The cache files in `folder`: what a store wrote, without its lock and temporary files.
    func cacheFiles(in folder: URL? = nil) -> [URL] {
        names(in: folder).filter { !$0.hasPrefix(".") }.map { (folder ?? url).appendingPathComponent($0) }
    }

    func remove() {
        // A test may have made a folder read-only.
        if let enumerator = FileManager.default.enumerator(atPath: url.path) {
            for case let path as String in enumerator { chmod(url.appendingPathComponent(path).path, 0o700) }
        }
        chmod(url.path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }
}

/// The size of the file at `url`, in bytes.
func fileSize(_ url: URL) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? -1
}

/// A README-style data source on a ``FileCacheStore``: a plain class with mutable state, not
/// `Sendable`, whose fetch the test sets. Teller calls it on the virtual-time scheduler only.
final class CodableReposDataSource: CodableRepositoryDataSource {
    typealias Requirements = TestRequirements

    let maxAgeOfCache = Period(unit: 1, component: .day)
    let cacheStore: FileCacheStore<[String]>
    /// What each fetch returns, given its requirements and how many fetches ran before it.
    var fetch: (TestRequirements, Int) -> Single<FetchResponse<[String], any Error>> = { _, _ in .never() }
    private(set) var fetchCount = 0

    init(cacheStore: FileCacheStore<[String]>) {
        self.cacheStore = cacheStore
    }

    func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<[String], any Error>> {
        defer { fetchCount += 1 }
        return fetch(requirements, fetchCount)
    }
}

extension VirtualTeller {
    /// Makes a repository over `dataSource` that shows `requirements` from virtual time `ticks`
    /// on (set and observed then), and the observer of its states. Schedule more, then run the
    /// scheduler with the repository alive.
    func repository<DataSource: RepositoryDataSource>(
        _ dataSource: DataSource,
        showing requirements: DataSource.Requirements,
        at ticks: Int = 100
    ) -> (TellerRepository<DataSource>, TestableObserver<CacheState<DataSource.Cache>>)
    where DataSource.Requirements: Sendable {
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        let states = scheduler.createObserver(CacheState<DataSource.Cache>.self)
        scheduler.scheduleAt(ticks) {
            repository.requirements = requirements
            _ = repository.observe().subscribe(states)
        }
        return (repository, states)
    }
}

/// A paging data source keeping its pages in a `FileCacheStore<[[String]]>` (one file per tag,
/// one array per page), as the example app does, in a private property, as an app's data source
/// would. Fetches answer at once: page `n` of `serverPages` holds `["<tag> page n"]`. Teller
/// calls it on its schedulers only.
final class FileCachePagedDataSource: PagingRepositoryDataSource {
    typealias PagingCache = [String]
    typealias Requirements = TestRequirements
    typealias PagingRequirements = PageNumber
    typealias NextPageRequirements = Void
    typealias PagingFetchResult = [String]
    typealias FetchError = any Error

    let maxAgeOfCache = Period(unit: 1, component: .day)
    let automaticallyRefresh: Bool
    let serverPages: Int
    private let store: FileCacheStore<[[String]]>
    private(set) var fetchCount = 0

    init(store: FileCacheStore<[[String]]>, serverPages: Int = 3, automaticallyRefresh: Bool = true) {
        self.store = store
        self.serverPages = serverPages
        self.automaticallyRefresh = automaticallyRefresh
    }

    func getNextPagePagingRequirements(
        currentPagingRequirements: PageNumber,
        nextPageRequirements: Void?
    ) -> PageNumber {
        PageNumber(number: currentPagingRequirements.number + 1)
    }

    func fetchFreshCache(
        requirements: TestRequirements,
        pagingRequirements: PageNumber
    ) -> Single<FetchResponse<FetchResult, any Error>> {
        fetchCount += 1
        let number = pagingRequirements.number
        let page = ["\(requirements.tag) page \(number)"]
        return .just(
            .success(
                PagedFetchResponse(areMorePages: number < serverPages, nextPageRequirements: nil, fetchResponse: page)
            )
        )
    }

    func saveCache(_ cache: [String], requirements: TestRequirements, pagingRequirements: PageNumber) throws {
        try store.update(tag: requirements.tag) { pages in pages = (pages ?? []) + [cache] }
    }

    func deleteCache(_ requirements: TestRequirements) {
        try? store.remove(tag: requirements.tag)
    }

    func persistOnlyFirstPage(requirements: TestRequirements) {
        try? store.update(tag: requirements.tag) { pages in pages = pages.map { Array($0.prefix(1)) } }
    }

    func observeCache(requirements: TestRequirements, pagingRequirements: PageNumber) -> Observable<[String]> {
        let shown = pagingRequirements.number
        return store.observe(tag: requirements.tag).map { pages in Array((pages ?? []).prefix(shown).joined()) }
    }

    func isCacheEmpty(_ cache: [String], requirements: TestRequirements, pagingRequirements: PageNumber) -> Bool {
        cache.isEmpty
    }
}

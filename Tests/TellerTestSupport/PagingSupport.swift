import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTesting

/// GitHub-style paging: page numbers from 1.
package struct PageNumber: PagingRepositoryRequirements, CustomStringConvertible {
    package let number: Int

    package init(number: Int) {
        self.number = number
    }

    package var description: String {
        "page \(number)"
    }
}

/// SoundCloud-style paging: the page after the item with id `after` (`nil`: the first page).
package struct Cursor: PagingRepositoryRequirements, CustomStringConvertible {
    package let after: String?

    package init(after: String?) {
        self.after = after
    }

    package var description: String {
        "after \(after ?? "start")"
    }
}

/// A real paging data source over an in-memory list, with a fetch the test controls.
///
/// Saving appends, `deleteCache` empties, `persistOnlyFirstPage` keeps `firstPageSize` items.
/// The cache emits its current value on subscription and after every change. Every call is
/// recorded in `log`, in order, so tests can assert what Teller asked and when.
package final class InMemoryPagedDataSource<
    Paging: PagingRepositoryRequirements & CustomStringConvertible,
    Next: Sendable
>:
    PagingRepositoryDataSource, @unchecked Sendable
{
    // @unchecked: every mutable property is in `state`.
    package typealias PagingCache = [String]
    package typealias Requirements = TestRequirements
    package typealias PagingRequirements = Paging
    package typealias NextPageRequirements = Next
    package typealias PagingFetchResult = [String]
    package typealias FetchError = any Error
    package typealias Page = FetchResponse<PagedFetchResponse<[String], Next>, any Error>

    private struct State {
        var log: [String] = []
        var nextPageAsks: [(Paging, Next?)] = []
        var fetch: (Paging) -> Single<Page> = { _ in .never() }
        var saveError: (any Error)?
        var applyWrites: (@Sendable ([OutboxRecord], [String]?) -> [String]?)?
    }

    package let maxAgeOfCache: Period
    package let automaticallyRefresh: Bool
    package let retryPolicy: RetryPolicy?
    package let refreshInterval: RxTimeInterval?
    package let firstPageSize: Int
    private let nextPage: @Sendable (Paging, Next?) -> Paging
    private let writeHook = Locked<(@Sendable (Bool) -> Void)?>(nil)
    private let state = Locked(State())
    /// The cached lists by tag (apart from `state`: observation closures capture only this).
    private let caches = Locked<[String: [String]]>([:])
    private let changes = PublishSubject<String>()

    package init(
        firstPageSize: Int = 2,
        maxAgeOfCache: Period = Period(unit: 1, component: .hour),
        automaticallyRefresh: Bool = true,
        retryPolicy: RetryPolicy? = nil,
        refreshInterval: RxTimeInterval? = nil,
        nextPage: @escaping @Sendable (Paging, Next?) -> Paging
    ) {
        self.firstPageSize = firstPageSize
        self.maxAgeOfCache = maxAgeOfCache
        self.automaticallyRefresh = automaticallyRefresh
        self.retryPolicy = retryPolicy
        self.refreshInterval = refreshInterval
        self.nextPage = nextPage
    }

    /// Every call so far: "trim", "delete", "fetch page 2", "save page 2", "observe page 1"…
    package var log: [String] {
        state.value.log
    }

    /// The fetched pages, in order.
    package var fetches: [String] {
        log.filter { $0.hasPrefix("fetch ") }
    }

    /// Called with `true` when a writing member (trim, delete, save) starts, `false` when it ends.
    package var onWrite: (@Sendable (Bool) -> Void)? {
        get { writeHook.value }
        set { writeHook.withLock { $0 = newValue } }
    }

    /// Runs `body` between the two calls of `onWrite`.
    private func writing<Result>(_ body: () throws -> Result) rethrows -> Result {
        let hook = writeHook.value
        hook?(true)
        defer { hook?(false) }
        return try body()
    }

    /// What `getNextPagePagingRequirements` was called with.
    package var nextPageAsks: [(Paging, Next?)] {
        state.value.nextPageAsks
    }

    /// What the next fetches return.
    package func respond(with fetch: @escaping (Paging) -> Single<Page>) {
        state.withLock { $0.fetch = fetch }
    }

    package func failSaves(with error: (any Error)?) {
        state.withLock { $0.saveError = error }
    }

    package func cache(for requirements: TestRequirements) -> [String]? {
        caches.value[requirements.tag]
    }

    /// Writes the cache directly, as an earlier launch would have.
    package func write(_ cache: [String], for requirements: TestRequirements) {
        caches.withLock { $0[requirements.tag] = cache }
        changes.onNext(requirements.tag)
    }

    /// Adds a line to `log`, e.g. from Teller's logger, to check the order of events and calls.
    package func note(_ line: String) {
        state.withLock { $0.log.append(line) }
    }

    package func getNextPagePagingRequirements(currentPagingRequirements: Paging, nextPageRequirements: Next?) -> Paging
    {
        state.withLock { $0.nextPageAsks.append((currentPagingRequirements, nextPageRequirements)) }
        return nextPage(currentPagingRequirements, nextPageRequirements)
    }

    package func persistOnlyFirstPage(requirements: TestRequirements) {
        let size = firstPageSize
        writing {
            state.withLock { $0.log.append("trim") }
            caches.withLock { $0[requirements.tag] = $0[requirements.tag].map { Array($0.prefix(size)) } }
        }
        changes.onNext(requirements.tag)
    }

    package func deleteCache(_ requirements: TestRequirements) {
        writing {
            state.withLock { $0.log.append("delete") }
            caches.withLock { $0[requirements.tag] = nil }
        }
        changes.onNext(requirements.tag)
    }

    package func fetchFreshCache(requirements: TestRequirements, pagingRequirements: Paging) -> Single<Page> {
        let fetch = state.withLock { state in
            state.log.append("fetch \(pagingRequirements)")
            return state.fetch
        }
        return fetch(pagingRequirements)
    }

    package func saveCache(_ cache: [String], requirements: TestRequirements, pagingRequirements: Paging) throws {
        let error = writing {
            let error = state.withLock { state -> (any Error)? in
                state.log.append("save \(pagingRequirements)")
                return state.saveError
            }
            if error == nil { caches.withLock { $0[requirements.tag, default: []] += cache } }
            return error
        }
        if let error { throw error }
        changes.onNext(requirements.tag)
    }

    package func observeCache(requirements: TestRequirements, pagingRequirements: Paging) -> Observable<[String]> {
        let tag = requirements.tag
        state.withLock { $0.log.append("observe \(pagingRequirements)") }
        let caches = self.caches
        let changes = self.changes
        return Observable.create { observer in
            observer.onNext(caches.value[tag] ?? [])
            return changes.filter { $0 == tag }.subscribe(onNext: { _ in
                observer.onNext(caches.value[tag] ?? [])
            })
        }
    }

    package func isCacheEmpty(_ cache: [String], requirements: TestRequirements, pagingRequirements: Paging) -> Bool {
        cache.isEmpty
    }

    /// How pending outbox writes are shown on the pages (not at all until this is called).
    package func showPendingWrites(with apply: @escaping @Sendable ([OutboxRecord], [String]?) -> [String]?) {
        state.withLock { $0.applyWrites = apply }
    }

    package func applyPendingWrites(
        _ writes: [OutboxRecord],
        to cache: [String]?,
        requirements: TestRequirements
    ) -> [String]? {
        guard let apply = state.value.applyWrites else { return cache }
        return apply(writes, cache)
    }
}

package typealias PageNumberDataSource = InMemoryPagedDataSource<PageNumber, Void>
package typealias CursorDataSource = InMemoryPagedDataSource<Cursor, String>

extension InMemoryPagedDataSource where Paging == PageNumber, Next == Void {
    /// Page numbers: the next page is the next number.
    package convenience init(
        firstPageSize: Int = 2,
        maxAgeOfCache: Period = Period(unit: 1, component: .hour),
        automaticallyRefresh: Bool = true,
        retryPolicy: RetryPolicy? = nil,
        refreshInterval: RxTimeInterval? = nil
    ) {
        let nextPage: @Sendable (PageNumber, Void?) -> PageNumber = { current, _ in
            PageNumber(number: current.number + 1)
        }
        self.init(
            firstPageSize: firstPageSize,
            maxAgeOfCache: maxAgeOfCache,
            automaticallyRefresh: automaticallyRefresh,
            retryPolicy: retryPolicy,
            refreshInterval: refreshInterval,
            nextPage: nextPage
        )
    }
}

extension InMemoryPagedDataSource where Paging == Cursor, Next == String {
    /// Cursors: the next page starts after the last id the previous page returned.
    package convenience init(firstPageSize: Int = 2, automaticallyRefresh: Bool = true) {
        self.init(firstPageSize: firstPageSize, automaticallyRefresh: automaticallyRefresh) { _, last in
            Cursor(after: last)
        }
    }
}

extension VirtualTeller {
    /// A paging repository whose `requirements` are set to `requirements` and which is
    /// observed from virtual time 100, with the observer of its states.
    package func pagingRepository<DataSource: PagingRepositoryDataSource>(
        _ dataSource: DataSource,
        firstPage: DataSource.PagingRequirements,
        requirements: TestRequirements = TestRequirements(username: "octocat")
    ) -> (TellerPagingRepository<DataSource>, TestableObserver<CacheState<PagedCache<[String]>>>)
    where DataSource.Requirements == TestRequirements, DataSource.PagingCache == [String] {
        let repository = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: firstPage,
            teller: teller
        )
        let states = scheduler.createObserver(CacheState<PagedCache<[String]>>.self)
        scheduler.scheduleAt(100) {
            repository.requirements = requirements
            _ = repository.observe().subscribe(states)
        }
        return (repository, states)
    }

    /// Calls `goToNextPage()` on `repository` at each of `times`.
    package func goToNextPage<DataSource: PagingRepositoryDataSource>(
        _ repository: TellerPagingRepository<DataSource>,
        at times: Int...
    ) {
        for time in times {
            scheduler.scheduleAt(time) { repository.goToNextPage() }
        }
    }
}

extension VirtualTeller {
    /// A page fetch that succeeds with `items` after `ticks`.
    package func page<Next: Sendable>(
        _ items: [String],
        more: Bool,
        next: Next? = nil,
        after ticks: Int
    ) -> Single<FetchResponse<PagedFetchResponse<[String], Next>, any Error>> {
        let response = PagedFetchResponse(areMorePages: more, nextPageRequirements: next, fetchResponse: items)
        return scheduler.createColdObservable([
            .next(ticks, FetchResponse<PagedFetchResponse<[String], Next>, any Error>.success(response)),
            .completed(ticks),
        ])
        .asSingle()
    }

    /// A page fetch that returns `.failure(error)` after `ticks`.
    package func failingPage<Next: Sendable>(
        _ error: any Error,
        after ticks: Int,
        as: Next.Type = Next.self
    ) -> Single<FetchResponse<PagedFetchResponse<[String], Next>, any Error>> {
        scheduler.createColdObservable([
            .next(ticks, FetchResponse<PagedFetchResponse<[String], Next>, any Error>.failure(error)),
            .completed(ticks),
        ])
        .asSingle()
    }

    /// A page-number server over `pages`: page n returns `pages[n - 1]` after `ticks`.
    package func pageNumberServer(
        _ pages: [[String]],
        after ticks: Int = 10
    ) -> @Sendable (PageNumber) -> Single<FetchResponse<PagedFetchResponse<[String], Void>, any Error>> {
        { page in
            let index = page.number - 1
            let items = pages.indices.contains(index) ? pages[index] : []
            return self.page(items, more: page.number < pages.count, next: Void?.none, after: ticks)
        }
    }

    /// A cursor server over `items`, `size` per page, returning the last id as the cursor.
    package func cursorServer(
        _ items: [String],
        size: Int = 2,
        after ticks: Int = 10
    ) -> @Sendable (Cursor) -> Single<FetchResponse<PagedFetchResponse<[String], String>, any Error>> {
        { cursor in
            let start = cursor.after.flatMap { items.firstIndex(of: $0).map { $0 + 1 } } ?? 0
            let end = min(start + size, items.count)
            let slice = Array(items[min(start, end)..<end])
            return self.page(slice, more: end < items.count, next: slice.last, after: ticks)
        }
    }

    /// Records `tag` as fetched at `ticks`, with the first page's paging progress.
    package func markFetched(_ requirements: TestRequirements, at ticks: Int, paging: PagingMetadata?) {
        store.setMetadata(FetchMetadata(lastFetched: date(ticks), paging: paging), forTag: requirements.tag)
    }
}

extension TestableObserver where Element == CacheState<PagedCache<[String]>> {
    /// The recorded states as `time: summary` lines, with the paging flags after the cache's.
    package var timeline: [String] {
        events.compactMap { recorded in
            switch recorded.value {
            case .next(let state):
                var parts = [StateSummary(state.convert { $0?.cache }).text]
                if let paged = state.cache {
                    if paged.areMorePages { parts.append("more") }
                    if paged.isLoadingNextPage { parts.append("loadingNextPage") }
                    if let error = paged.nextPageError { parts.append("nextPageError \(error)") }
                }
                return "\(recorded.time): \(parts.joined(separator: ", "))"
            case .error(let error): return "\(recorded.time): error \(error)"
            case .completed: return "\(recorded.time): completed"
            }
        }
    }
}

extension TestableObserver where Element == CacheState<PagedCache<[String]>> {
    /// The states recorded, without their times.
    package var states: [CacheState<PagedCache<[String]>>] {
        events.compactMap { $0.value.element }
    }
}

import Foundation
import Teller
import TellerRx
import TellerTesting

/// Page numbers from 1, GitHub style.
struct PageNumber: PagingRepositoryRequirements, CustomStringConvertible {
    let number: Int

    var description: String {
        "page \(number)"
    }
}

/// The page after the item with id `after` (`nil`: the first page), SoundCloud style.
struct Cursor: PagingRepositoryRequirements, CustomStringConvertible {
    let after: String?

    var description: String {
        "after \(after ?? "start")"
    }
}

/// A real paging data source over an in-memory list, with a fetch the test controls.
///
/// Saving appends, `deleteCache` empties, `persistOnlyFirstPage` keeps `firstPageSize` items,
/// and the cache emits its current value on subscription and after every change. Calls are
/// logged in order ("fetch page 2", "delete", "save page 1", "trim"…).
final class InMemoryPagedDataSource<Paging: PagingRepositoryRequirements & CustomStringConvertible, Next: Sendable>:
    PagingRepositoryDataSource, @unchecked Sendable
{
    // @unchecked: every mutable property is in a `Locked`.
    typealias PagingCache = [String]
    typealias Requirements = TestRequirements
    typealias PagingRequirements = Paging
    typealias NextPageRequirements = Next
    typealias PagingFetchResult = [String]
    typealias FetchError = any Error
    typealias Page = FetchResponse<PagedFetchResponse<[String], Next>, any Error>

    private struct State {
        var log: [String] = []
        var nextPageAsks: [Next?] = []
        var fetch: (@Sendable (Paging) -> Single<Page>)?
        var saveError: (any Error)?
    }

    let maxAgeOfCache: Period
    let automaticallyRefresh: Bool
    private let firstPageSize: Int
    private let nextPage: @Sendable (Paging, Next?) -> Paging
    private let state = Locked(State())
    private let caches = Locked<[String: [String]]>([:])
    private let changes = PublishSubject<String>()

    init(
        firstPageSize: Int = 2,
        maxAgeOfCache: Period = Period(unit: 1, component: .hour),
        automaticallyRefresh: Bool = true,
        nextPage: @escaping @Sendable (Paging, Next?) -> Paging
    ) {
        self.firstPageSize = firstPageSize
        self.maxAgeOfCache = maxAgeOfCache
        self.automaticallyRefresh = automaticallyRefresh
        self.nextPage = nextPage
    }

    /// Every call so far, in order.
    var log: [String] {
        state.value.log
    }

    /// The pages fetched, in order.
    var fetches: [String] {
        log.filter { $0.hasPrefix("fetch ") }
    }

    /// The next-page requirements `getNextPagePagingRequirements` received, in order.
    var nextPageAsks: [Next?] {
        state.value.nextPageAsks
    }

    /// What the next fetches return.
    func respond(with fetch: @escaping @Sendable (Paging) -> Single<Page>) {
        state.withLock { $0.fetch = fetch }
    }

    func failSaves(with error: (any Error)?) {
        state.withLock { $0.saveError = error }
    }

    func cache(for requirements: TestRequirements) -> [String]? {
        caches.value[requirements.tag]
    }

    /// Writes the cache directly, as an earlier launch would have.
    func write(_ cache: [String], for requirements: TestRequirements) {
        caches.withLock { $0[requirements.tag] = cache }
        changes.onNext(requirements.tag)
    }

    func getNextPagePagingRequirements(currentPagingRequirements: Paging, nextPageRequirements: Next?) -> Paging {
        state.withLock { $0.nextPageAsks.append(nextPageRequirements) }
        return nextPage(currentPagingRequirements, nextPageRequirements)
    }

    func persistOnlyFirstPage(requirements: TestRequirements) {
        let size = firstPageSize
        state.withLock { $0.log.append("trim") }
        caches.withLock { $0[requirements.tag] = $0[requirements.tag].map { Array($0.prefix(size)) } }
        changes.onNext(requirements.tag)
    }

    func deleteCache(_ requirements: TestRequirements) {
        state.withLock { $0.log.append("delete") }
        caches.withLock { $0[requirements.tag] = nil }
        changes.onNext(requirements.tag)
    }

    func fetchFreshCache(requirements: TestRequirements, pagingRequirements: Paging) -> Single<Page> {
        let fetch = state.withLock { state in
            state.log.append("fetch \(pagingRequirements)")
            return state.fetch
        }
        return fetch?(pagingRequirements) ?? .never()
    }

    func saveCache(_ cache: [String], requirements: TestRequirements, pagingRequirements: Paging) throws {
        let error = state.withLock { state -> (any Error)? in
            state.log.append("save \(pagingRequirements)")
            return state.saveError
        }
        if let error { throw error }
        caches.withLock { $0[requirements.tag, default: []] += cache }
        changes.onNext(requirements.tag)
    }

    func observeCache(requirements: TestRequirements, pagingRequirements: Paging) -> Observable<[String]> {
        let tag = requirements.tag
        let caches = self.caches
        let changes = self.changes
        return Observable.create { observer in
            observer.onNext(caches.value[tag] ?? [])
            return changes.filter { $0 == tag }.subscribe(onNext: { _ in
                observer.onNext(caches.value[tag] ?? [])
            })
        }
    }

    func isCacheEmpty(_ cache: [String], requirements: TestRequirements, pagingRequirements: Paging) -> Bool {
        cache.isEmpty
    }
}

typealias PageNumberDataSource = InMemoryPagedDataSource<PageNumber, Void>
typealias CursorDataSource = InMemoryPagedDataSource<Cursor, String>

extension InMemoryPagedDataSource where Paging == PageNumber, Next == Void {
    /// Page numbers: the next page is the next number.
    convenience init(maxAgeOfCache: Period = Period(unit: 1, component: .hour), automaticallyRefresh: Bool = true) {
        self.init(maxAgeOfCache: maxAgeOfCache, automaticallyRefresh: automaticallyRefresh) { current, _ in
            PageNumber(number: current.number + 1)
        }
    }
}

extension InMemoryPagedDataSource where Paging == Cursor, Next == String {
    /// Cursors: the next page starts after the last id the previous page returned.
    convenience init(automaticallyRefresh: Bool = true) {
        self.init(automaticallyRefresh: automaticallyRefresh) { _, last in Cursor(after: last) }
    }
}

extension VirtualTeller {
    /// A page fetch that succeeds with `items` after `ticks`.
    func page<Next: Sendable>(
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
    func failingPage<Next: Sendable>(
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

    /// A page-number server over `pages`: page n returns `pages[n - 1]` after `ticks`, saying
    /// whether a page n + 1 exists.
    func pageNumberServer(
        _ pages: [[String]],
        after ticks: Int = 10
    ) -> @Sendable (PageNumber) -> Single<FetchResponse<PagedFetchResponse<[String], Void>, any Error>> {
        { page in
            let index = page.number - 1
            let items = pages.indices.contains(index) ? pages[index] : []
            return self.page(items, more: page.number < pages.count, next: Void?.none, after: ticks)
        }
    }

    /// A cursor server over `items`, `size` per page, returning each page's last id as the cursor.
    func cursorServer(
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
}

extension TestableObserver where Element == CacheState<PagedCache<[String]>> {
    /// The recorded states as `time: summary` lines, with the paging flags after the cache's.
    var timeline: [String] {
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

    /// The states recorded, without their times.
    var states: [CacheState<PagedCache<[String]>>] {
        events.compactMap { $0.value.element }
    }
}

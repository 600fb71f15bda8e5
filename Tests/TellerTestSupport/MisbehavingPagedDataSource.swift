import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

/// Cached pages by tag, shared by the data sources of one test: page `n` is stored as `[n]`.
package final class PageStore: @unchecked Sendable {
    // @unchecked: `pages` is only reached under its lock; `changes` is thread-safe.
    private let pages = Locked<[String: [Int]]>([:])
    fileprivate let changes = PublishSubject<String>()

    package init() {}

    /// Every tag's pages.
    package var all: [String: [Int]] {
        pages.value
    }

    package func pages(of tag: String) -> [Int] {
        pages.value[tag] ?? []
    }

    /// Writes pages directly, as an earlier launch would have.
    package func write(_ stored: [Int], for tag: String) {
        update(tag) { $0 = stored }
    }

    fileprivate func update(_ tag: String, _ change: (inout [Int]) -> Void) {
        pages.withLock { pages in change(&pages[tag, default: []]) }
        changes.onNext(tag)
    }
}

/// A paging data source that misbehaves the ways real ones do: its fetches answer late, fail
/// (`.failure` or a failed `Single`), never answer (the Teller's `fetchTimeout` ends them),
/// answer after being disposed, or answer twice; its saves throw now and then. Pages are
/// numbers: page `n` of `serverPages` holds `[n]` and says more pages exist while
/// `n < serverPages`.
///
/// It counts its writing members (`persistOnlyFirstPage`, `deleteCache`, `saveCache`) running at
/// the same time, so a test can check that a repository never overlaps them.
package final class MisbehavingPagedDataSource: PagingRepositoryDataSource, @unchecked Sendable {
    // @unchecked: mutable state is in `random`, `writes` and `counts`, each behind a lock.
    package typealias PagingCache = [Int]
    package typealias Requirements = TestRequirements
    package typealias PagingRequirements = PageNumber
    package typealias NextPageRequirements = Void
    package typealias PagingFetchResult = [Int]
    package typealias FetchError = any Error
    package typealias Page = FetchResponse<PagedFetchResponse<[Int], Void>, any Error>

    package let maxAgeOfCache = Period(unit: 1, component: .hour)
    package let automaticallyRefresh: Bool
    package let store: PageStore
    package let serverPages: Int
    private let network: any SchedulerType
    private let saveFailurePercent: Int
    private let random: Locked<SplitMix64>
    private let writes = Locked((running: [String](), maximum: 0, overlaps: Set<String>()))
    private let counts = Locked((fetches: 0, writes: 0, answeredTwice: 0))

    /// - Parameters:
    ///   - store: Where pages are saved; data sources of one test may share it.
    ///   - network: Where late answers are scheduled.
    package init(
        store: PageStore,
        serverPages: Int,
        automaticallyRefresh: Bool,
        saveFailurePercent: Int,
        network: any SchedulerType,
        seed: UInt64
    ) {
        self.store = store
        self.serverPages = serverPages
        self.automaticallyRefresh = automaticallyRefresh
        self.saveFailurePercent = saveFailurePercent
        self.network = network
        random = Locked(SplitMix64(seed: seed))
    }

    /// The most writing members that ran at the same time.
    package var maximumConcurrentWrites: Int {
        writes.value.maximum
    }

    /// Which writing members ran at the same time ("deleteCache + saveCache page 2"…).
    package var overlappingWrites: Set<String> {
        writes.value.overlaps
    }

    package var fetchCount: Int {
        counts.value.fetches
    }

    /// How many fetches answered twice: TellerRx reports each second answer as misuse.
    package var answeredTwiceCount: Int {
        counts.value.answeredTwice
    }

    // MARK: Fetching

    package func getNextPagePagingRequirements(
        currentPagingRequirements: PageNumber,
        nextPageRequirements: Void?
    )
        -> PageNumber
    {
        PageNumber(number: currentPagingRequirements.number + 1)
    }

    private enum Answer { case late, failure, error, never, afterDisposal, twice }

    package func fetchFreshCache(requirements: TestRequirements, pagingRequirements: PageNumber) -> Single<Page> {
        counts.withLock { $0.fetches += 1 }
        let number = pagingRequirements.number
        let page = Page.success(
            PagedFetchResponse(areMorePages: number < serverPages, nextPageRequirements: nil, fetchResponse: [number])
        )
        let (answer, delay) = random.withLock { random in
            let answer = random.pick(weighted: [
                (55, Answer.late), (10, .failure), (8, .error), (7, .never), (10, .afterDisposal), (10, .twice),
            ])
            return (answer, random.int(0...2_000))
        }
        let network = self.network
        switch answer {
        case .late:
            return Single.create { single in
                network.scheduleRelative((), dueTime: .microseconds(delay)) { _ in
                    single(.success(page))
                    return Disposables.create()
                }
            }
        case .failure:
            return .just(.failure(TestError(1)))
        case .error:
            return .error(TestError(2))
        case .never:
            return .never()
        case .afterDisposal:
            return Single.create { single in
                // Ignores disposal: the answer comes anyway.
                _ = network.scheduleRelative((), dueTime: .microseconds(delay)) { _ in
                    single(.success(page))
                    return Disposables.create()
                }
                return Disposables.create()
            }
        case .twice:
            let counts = self.counts
            return Single.create { single in
                counts.withLock { $0.answeredTwice += 1 }
                single(.success(page))
                single(.success(page))
                return Disposables.create()
            }
        }
    }

    // MARK: Writing

    package func persistOnlyFirstPage(requirements: TestRequirements) {
        writing("persistOnlyFirstPage") { store.update(requirements.tag) { $0 = Array($0.prefix(1)) } }
    }

    package func deleteCache(_ requirements: TestRequirements) {
        writing("deleteCache") { store.update(requirements.tag) { $0 = [] } }
    }

    package func saveCache(_ cache: [Int], requirements: TestRequirements, pagingRequirements: PageNumber) throws {
        let fails = random.withLock { $0.percent(saveFailurePercent) }
        try writing("saveCache \(pagingRequirements)") {
            if fails { throw TestError(3) }
            store.update(requirements.tag) { $0 += cache }
        }
    }

    private func writing<Result>(_ member: String, _ body: () throws -> Result) rethrows -> Result {
        writes.withLock { writes in
            writes.running.append(member)
            writes.maximum = max(writes.maximum, writes.running.count)
            if writes.running.count > 1 { writes.overlaps.insert(writes.running.sorted().joined(separator: " + ")) }
        }
        defer {
            writes.withLock { writes in
                if let index = writes.running.firstIndex(of: member) { writes.running.remove(at: index) }
            }
        }
        // Not synchronisation: a write that takes a moment, as on a disk, so that writes running
        // at the same time are seen.
        usleep(100)
        return try body()
    }

    // MARK: Observing

    /// Sends the pages shown now, then the pages after every later write, none missed: it
    /// subscribes to changes before it reads, and every read comes after the write that asked
    /// for it. (Reading first and then subscribing, as this fake once did, missed a write made
    /// in between, and observers then showed pages the store no longer held.)
    package func observeCache(requirements: TestRequirements, pagingRequirements: PageNumber) -> Observable<[Int]> {
        let tag = requirements.tag
        let shown = pagingRequirements.number
        let store = self.store
        return Observable.create { observer in
            let reader = PageReader { observer.onNext(Array(store.pages(of: tag).prefix(shown))) }
            let changes = store.changes.filter { $0 == tag }.subscribe(onNext: { _ in reader.read() })
            reader.read()
            return changes
        }
    }

    package func isCacheEmpty(_ cache: [Int], requirements: TestRequirements, pagingRequirements: PageNumber) -> Bool {
        cache.isEmpty
    }
}

/// Runs `send` (read the store, send what it holds) once for every call to `read()`, one call at
/// a time and without a lock held while it sends: a call made while another one sends is run by
/// that one after it returns, so the last read always comes after the last write that asked for
/// one, and the observer's events never overlap.
private final class PageReader: Sendable {
    private let send: @Sendable () -> Void
    private let state = Locked((isSending: false, isWanted: false))

    init(_ send: @escaping @Sendable () -> Void) {
        self.send = send
    }

    func read() {
        let sends = state.withLock { state -> Bool in
            state.isWanted = true
            guard !state.isSending else { return false }
            state.isSending = true
            return true
        }
        guard sends else { return }
        while state.withLock({ state -> Bool in
            guard state.isWanted else {
                state.isSending = false
                return false
            }
            state.isWanted = false
            return true
        }) {
            send()
        }
    }
}

import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Real threads: a serial UI queue, a concurrent background queue, and callers on many threads.
/// Asserts invariants only (one fetch per page, writes never overlap, the cache is always the
/// server's list in order), never timings.
@Suite struct PagingConcurrencyTests {
    private static let all = (0..<30).map { "item \($0)" }
    private static let pageSize = 3
    let octocat = TestRequirements(username: "octocat")

    /// Watches the data source's writes: how many ran at the same time, at most.
    private final class WriteWatch: Sendable {
        private let counters = LockedState((running: 0, maximum: 0))

        var maximum: Int {
            counters.value.maximum
        }

        func enter() {
            counters.withLock { counters in
                counters.running += 1
                counters.maximum = max(counters.maximum, counters.running)
            }
            // Not synchronisation: a write that takes a while, as on a real disk, so that
            // overlapping writes would be seen.
            usleep(300)
        }

        func leave() {
            counters.withLock { $0.running -= 1 }
        }
    }

    private static func makeTeller() -> Teller {
        Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "paging.ui"),
            backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated),
            fetchTimeout: .seconds(10)
        )
    }

    /// Serves `all` by page number after a random moment, as a network would.
    private static func serve(_ page: PageNumber) -> Single<PageNumberDataSource.Page> {
        let start = (page.number - 1) * pageSize
        let items = Array(all.dropFirst(start).prefix(pageSize))
        let response = PagedFetchResponse<[String], Void>(
            areMorePages: start + pageSize < all.count,
            nextPageRequirements: nil,
            fetchResponse: items
        )
        return Observable.just(PageNumberDataSource.Page.success(response))
            .delay(.microseconds(Int.random(in: 0...2_000)), scheduler: network)
            .asSingle()
    }

    private static let network = ConcurrentDispatchQueueScheduler(qos: .userInitiated)

    /// Observes `repository`, recording every state and signalling `arrived` for each.
    private static func record(
        _ repository: TellerPagingRepository<PageNumberDataSource>,
        into states: Locked<[CacheState<PagedCache<[String]>>]>,
        arrived: DispatchSemaphore
    ) -> any Disposable {
        repository.observe().subscribe(onNext: { state in
            states.withLock { $0.append(state) }
            arrived.signal()
        })
    }

    /// Calls `goToNextPage()` until the whole list is shown and nothing loads.
    private static func pageToTheEnd(
        _ repository: TellerPagingRepository<PageNumberDataSource>,
        states: Locked<[CacheState<PagedCache<[String]>>]>,
        arrived: DispatchSemaphore
    ) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let latest = states.value.last, latest.cache?.cache == all, !latest.isFetching,
                latest.cache?.isLoadingNextPage == false
            {
                return true
            }
            repository.goToNextPage()
            _ = arrived.wait(timeout: .now() + 5)
        }
        return false
    }

    @Test func callsFromManyThreadsFetchEveryPageOnceAndInOrder() {
        let dataSource = PageNumberDataSource(firstPageSize: Self.pageSize)
        dataSource.respond(with: Self.serve)
        let repository = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: Self.makeTeller()
        )
        let states = Locked<[CacheState<PagedCache<[String]>>]>([])
        let arrived = DispatchSemaphore(value: 0)
        let subscription = Self.record(repository, into: states, arrived: arrived)
        repository.requirements = octocat
        // Every state that shows more pages sets eight threads scrolling at once.
        let scrolling = repository.observe().subscribe(onNext: { state in
            guard state.cache?.areMorePages == true else { return }
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: 8) { _ in repository.goToNextPage() }
            }
        })
        #expect(Self.pageToTheEnd(repository, states: states, arrived: arrived))
        scrolling.dispose()
        subscription.dispose()
        let pages = (1...(Self.all.count / Self.pageSize)).map { "fetch page \($0)" }
        #expect(dataSource.fetches == pages)
        #expect(dataSource.cache(for: octocat) == Self.all)
    }

    @Test func refreshesAmongNextPagesNeverOverlapWritesOrMisorderPages() {
        let watch = WriteWatch()
        let dataSource = PageNumberDataSource(firstPageSize: Self.pageSize)
        dataSource.respond(with: Self.serve)
        dataSource.onWrite = { writing in writing ? watch.enter() : watch.leave() }
        let repository = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: Self.makeTeller()
        )
        let states = Locked<[CacheState<PagedCache<[String]>>]>([])
        let arrived = DispatchSemaphore(value: 0)
        let subscription = Self.record(repository, into: states, arrived: arrived)
        repository.requirements = octocat
        let driven = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for round in 0..<200 {
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    if thread == 0, round % 20 == 0 {
                        _ = try? repository.refresh(force: true).subscribe()
                    } else {
                        repository.goToNextPage()
                    }
                }
            }
            driven.signal()
        }
        #expect(driven.wait(timeout: .now() + 30) == .success)
        #expect(Self.pageToTheEnd(repository, states: states, arrived: arrived))
        subscription.dispose()
        #expect(watch.maximum == 1)
        // Whatever the interleaving, every cache shown is the start of the list, in order.
        let shown = states.value.compactMap { $0.cache?.cache }
        #expect(shown.allSatisfy { Array(Self.all.prefix($0.count)) == $0 })
        #expect(dataSource.cache(for: octocat) == Self.all)
    }
}

import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Teller's own code never misuses TellerRx: an app used as the guides say, on real queues and a
/// `FileCacheStore` whose files go missing, gets no "TellerRx warning" (such as "Observable.create
/// sent an element after the sequence ended", which a purged cache file once caused).
///
/// Tests of other suites misbehave on purpose at the same time, so the capture takes only the
/// reports made on this test's own queues: the app's, and the Teller's UI and background queues,
/// which carry a queue-specific key no other test sets.
@Suite struct TellerCausesNoMisuseReportsTests {
    /// How long to wait for real queues that take milliseconds, on a machine busy with tests.
    static let patience: TimeInterval = 30

    let folder = TemporaryFolder()
    let octocat = TestRequirements(username: "octocat")
    let hubot = TestRequirements(username: "hubot")
    let work = WorkCounter()
    let ownQueue = DispatchSpecificKey<Bool>()
    /// Where the test calls the repositories, as an app's main thread would.
    let app = DispatchQueue(label: "no-misuse.app")
    let teller: Teller

    init() {
        let ui = DispatchQueue(label: "no-misuse.ui")
        let background = DispatchQueue(label: "no-misuse.background", attributes: .concurrent)
        for queue in [app, ui, background] {
            queue.setSpecific(key: ownQueue, value: true)
        }
        teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: CountingScheduler(
                SerialDispatchQueueScheduler(queue: ui, internalSerialQueueName: "ui"),
                counter: work
            ),
            backgroundScheduler: CountingScheduler(ConcurrentDispatchQueueScheduler(queue: background), counter: work),
            appLifecycleNotifications: nil
        )
    }

    /// Runs `body` on the app queue, then waits until the Teller's queues are idle.
    private func onApp(_ body: @Sendable () -> Void) {
        app.sync(execute: body)
        #expect(work.waitUntilIdle(timeout: Self.patience), "the Teller's queues never came to rest")
    }

    @Test func aRepositoryAndAPagingRepositoryOnAFileCacheStoreReportNoMisuse() throws {
        defer { folder.remove() }
        let key = ownQueue
        let reports = MisuseCapture(accepting: { _ in DispatchQueue.getSpecific(key: key) == true })
        try reports.during {
            try useARepository()
            try useAPagingRepository()
        }
        #expect(reports.messages == [])
    }

    /// Fetches, refreshes, shows a tag whose file was removed (purged by the system while
    /// another tag was shown, and while observed), signs out and clears, in either order.
    private func useARepository() throws {
        let store = try FileCacheStore<[String]>(directory: folder.child("repos"), teller: teller)
        let dataSource = CodableReposDataSource(cacheStore: store)
        let fetches = Locked(0)
        let background = teller.backgroundScheduler
        dataSource.fetch = { requirements, _ in
            let number = fetches.withLock { count -> Int in
                count += 1
                return count
            }
            // Answers later, on the background queue, as a network call would.
            return Single.just(FetchResponse<[String], any Error>.success(["\(requirements.tag) #\(number)"]))
                .delay(.milliseconds(1), scheduler: background)
        }
        let repository = UncheckedSendable(TellerRepository(dataSource: dataSource, teller: teller))
        let states = Locked<[CacheState<[String]>]>([])
        let (octocat, hubot, teller) = (octocat, hubot, teller)
        onApp {
            _ = repository.value.observe().subscribe(onNext: { state in states.withLock { $0.append(state) } })
            repository.value.requirements = octocat
        }
        #expect(states.value.last?.cache == ["\(octocat.tag) #1"])
        onApp { _ = try? repository.value.refresh(force: true).subscribe(onSuccess: { _ in }) }
        #expect(states.value.last?.cache == ["\(octocat.tag) #2"])

        onApp { repository.value.requirements = hubot }
        #expect(states.value.last?.cache == ["\(hubot.tag) #3"])
        // Purged while another tag is shown: Teller still has its fetch time.
        try store.remove(tag: octocat.tag)
        onApp { repository.value.requirements = octocat }
        #expect(states.value.last?.cache == ["\(octocat.tag) #4"])
        // Removed while observed.
        try store.remove(tag: octocat.tag)
        #expect(work.waitUntilIdle(timeout: Self.patience))
        #expect(states.value.last?.cache == ["\(octocat.tag) #5"])

        onApp {
            repository.value.requirements = nil
            teller.clear()
        }
        onApp {
            repository.value.requirements = hubot
            teller.clear()
            repository.value.requirements = nil
        }
    }

    /// Shows pages, pages on, refreshes, loses the file, and signs out.
    private func useAPagingRepository() throws {
        let store = try FileCacheStore<[[String]]>(directory: folder.child("pages"), teller: teller)
        let repository = UncheckedSendable(
            TellerPagingRepository(
                dataSource: FileCachePagedDataSource(store: store),
                firstPageRequirements: PageNumber(number: 1),
                teller: teller
            )
        )
        let states = Locked<[CacheState<PagedCache<[String]>>]>([])
        let (octocat, teller) = (octocat, teller)
        onApp {
            _ = repository.value.observe().subscribe(onNext: { state in states.withLock { $0.append(state) } })
            repository.value.requirements = octocat
        }
        #expect(states.value.last?.cache?.cache == ["\(octocat.tag) page 1"])
        onApp { repository.value.goToNextPage() }
        #expect(states.value.last?.cache?.cache == ["\(octocat.tag) page 1", "\(octocat.tag) page 2"])
        onApp { _ = try? repository.value.refresh(force: true).subscribe(onSuccess: { _ in }) }
        #expect(states.value.last?.cache?.cache == ["\(octocat.tag) page 1"])
        try store.remove(tag: octocat.tag)
        #expect(work.waitUntilIdle(timeout: Self.patience))
        onApp {
            repository.value.requirements = nil
            teller.clear()
        }
    }
}

import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// States reach every observer on the UI scheduler in the order the repository decided them,
/// and an observer that disposed gets none of the states still queued for it there.
@Suite struct StateDeliveryTests {
    let octocat = TestRequirements(username: "octocat")

    @Test func anObserverThatDisposesWhileStatesWaitForTheUIQueueGetsNoneOfThem() throws {
        let ui = DispatchQueue(label: "ui")
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: SerialDispatchQueueScheduler(queue: ui, internalSerialQueueName: "ui-serial"),
            backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        )
        try teller.metadataStore.setMetadata(FetchMetadata(lastFetched: Date()), forTag: octocat.tag)
        let dataSource = InMemoryDataSource()
        dataSource.write(["cached"], for: octocat)
        dataSource.respond { _ in .never() }
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        repository.requirements = octocat

        let leaving = Locked<[String]>([])
        let staying = Locked<[String]>([])
        let bothSawTheCache = DispatchSemaphore(value: 0)
        let stayingSawTheRefresh = DispatchSemaphore(value: 0)
        @Sendable func record(_ state: CacheState<[String]>, in log: Locked<[String]>) -> String {
            let entry = state.isRefreshing ? "refreshing" : "\(state.cache ?? [])"
            log.withLock { $0.append(entry) }
            return entry
        }
        let leavingSubscription = repository.observe().subscribe(onNext: { state in
            if record(state, in: leaving) == "[\"cached\"]" { bothSawTheCache.signal() }
        })
        let stayingSubscription = repository.observe().subscribe(onNext: { state in
            switch record(state, in: staying) {
            case "[\"cached\"]": bothSawTheCache.signal()
            case "refreshing": stayingSawTheRefresh.signal()
            default: break
            }
        })
        #expect(bothSawTheCache.wait(timeout: .now() + 30) == .success)
        #expect(bothSawTheCache.wait(timeout: .now() + 30) == .success)
        let before = leaving.value

        // The refresh decides its state on this thread while the UI queue is held, so the
        // state waits there for both observers; one leaves before the queue runs again.
        ui.suspend()
        let refresh = try repository.refresh(force: true).subscribe()
        leavingSubscription.dispose()
        ui.resume()

        #expect(stayingSawTheRefresh.wait(timeout: .now() + 30) == .success)
        // Anything still queued for the leaving observer ran before this block on the UI queue.
        ui.sync {}
        #expect(leaving.value == before)
        #expect(staying.value.last == "refreshing")
        refresh.dispose()
        stayingSubscription.dispose()
        withExtendedLifetime(repository) {}
    }
}

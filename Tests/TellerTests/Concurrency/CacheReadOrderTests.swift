import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// A store's current value, sent while its observation is subscribed on the UI scheduler, is
/// read in that turn; anything sent from another thread goes through the UI scheduler, and
/// once something did, everything after it does too: no value overtakes one sent before it.
@Suite struct CacheReadOrderTests {
    /// An observation that sends "first" while it is subscribed, then "second" from a thread of
    /// its own (waiting until it was sent), then "third", still while it is subscribed. Records
    /// the order `isCacheEmpty` sees them in, and whether it ran on the UI queue.
    final class InterleavingDataSource: RepositoryDataSource, Sendable {
        typealias Cache = String
        typealias Requirements = TestRequirements
        typealias FetchResult = String
        typealias FetchError = any Error

        static let uiKey = DispatchSpecificKey<Bool>()
        let maxAgeOfCache = Period(unit: 1, component: .hour)
        let automaticallyRefresh = false
        let seen = Locked<[String]>([])
        let offTheUIQueue = Locked(0)
        let allSeen = DispatchSemaphore(value: 0)

        func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<String, any Error>> {
            .just(.success("fetched"))
        }

        func saveCache(_ cache: String, requirements: TestRequirements) throws {}

        func observeCache(requirements: TestRequirements) -> Observable<String> {
            Observable.create { observer in
                observer.onNext("first")
                let sent = DispatchSemaphore(value: 0)
                // A thread of its own: `DispatchQueue.sync` may run the block on this thread.
                let other = Thread {
                    observer.onNext("second")
                    sent.signal()
                }
                other.start()
                sent.wait()
                observer.onNext("third")
                return Disposables.create()
            }
        }

        func isCacheEmpty(_ cache: String, requirements: TestRequirements) -> Bool {
            if DispatchQueue.getSpecific(key: Self.uiKey) != true {
                offTheUIQueue.withLock { $0 += 1 }
            }
            let count = seen.withLock { seen in
                seen.append(cache)
                return seen.count
            }
            if count == 3 { allSeen.signal() }
            return false
        }
    }

    @Test func aValueSentFromAnotherThreadWhileTheCacheIsSubscribedIsNotOvertakenByALaterOne() throws {
        let octocat = TestRequirements(username: "octocat")
        let ui = DispatchQueue(label: "cache-read-order.ui")
        ui.setSpecific(key: InterleavingDataSource.uiKey, value: true)
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: SerialDispatchQueueScheduler(queue: ui, internalSerialQueueName: "cache-read-order.ui-serial"),
            backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        )
        // A fetch time, so the repository reads the cache without fetching.
        try teller.metadataStore.setMetadata(FetchMetadata(lastFetched: Date()), forTag: octocat.tag)
        let dataSource = InterleavingDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        let subscription = repository.observe().subscribe()
        repository.requirements = octocat

        #expect(dataSource.allSeen.wait(timeout: .now() + 30) == .success)
        #expect(dataSource.seen.value == ["first", "second", "third"])
        #expect(dataSource.offTheUIQueue.value == 0)
        subscription.dispose()
        withExtendedLifetime(repository) {}
    }
}

import Dispatch
import Foundation
import Synchronization
import Teller
@_spi(TellerInternals) import TellerRx

/// Requirements for the Teller benchmarks.
struct BenchmarkRequirements: RepositoryRequirements {
    let tag: String
}

/// An in-memory data source whose fetch waits for a gate the benchmark opens, and whose cache
/// the benchmark can write to make `observeCache` emit. Given `phases`, it stamps when Teller
/// calls its fetch and save.
final class GatedDataSource: RepositoryDataSource, Sendable {
    typealias Cache = Int
    typealias Requirements = BenchmarkRequirements
    typealias FetchResult = Int
    typealias FetchError = any Error

    let maxAgeOfCache = Period(unit: 1, component: .hour)
    let automaticallyRefresh: Bool
    let gate = ReplaySubject<FetchResponse<Int, any Error>>.create(bufferSize: 1)
    let cache = BehaviorSubject(value: 0)
    private let fetchCount = LockedState(0)
    private let phases: RefreshPhases?

    init(automaticallyRefresh: Bool, phases: RefreshPhases? = nil) {
        self.automaticallyRefresh = automaticallyRefresh
        self.phases = phases
    }

    var fetches: Int {
        fetchCount.value
    }

    func fetchFreshCache(requirements: BenchmarkRequirements) -> Single<FetchResponse<Int, any Error>> {
        phases?.stamp(.fetchCalled)
        fetchCount.withLock { $0 += 1 }
        return gate.take(1).asSingle()
    }

    func saveCache(_ cache: Int, requirements: BenchmarkRequirements) throws {
        phases?.stamp(.saveStarted)
        self.cache.onNext(cache)
        phases?.stamp(.saveEnded)
    }

    func observeCache(requirements: BenchmarkRequirements) -> Observable<Int> {
        cache.asObservable()
    }

    func isCacheEmpty(_ cache: Int, requirements: BenchmarkRequirements) -> Bool {
        false
    }
}

/// A Teller environment on Dispatch queues, with a logger hook.
func benchmarkTeller(logger: (@Sendable (TellerLogEvent) -> Void)? = nil) -> Teller {
    Teller(
        metadataStore: InMemoryFetchMetadataStore(),
        uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "benchmark.ui"),
        backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated),
        fetchTimeout: nil,
        logger: logger
    )
}

/// Counts up to a target and signals once when it is reached. An atomic counter, so that the
/// benchmark's own bookkeeping adds no contended lock to the calls it measures.
final class CountdownLatch: Sendable {
    private let count = Atomic<Int>(0)
    private let target: Int
    private let reached = DispatchSemaphore(value: 0)

    init(target: Int) {
        self.target = target
    }

    func countDown() {
        if count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == target {
            reached.signal()
        }
    }

    func wait() {
        reached.wait()
    }
}

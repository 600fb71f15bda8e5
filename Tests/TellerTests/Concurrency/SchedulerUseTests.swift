import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Fetch and save run on the background scheduler; observe and isCacheEmpty on the UI
/// scheduler; states are delivered on the UI scheduler.
@Suite struct SchedulerUseTests {
    final class QueueRecordingDataSource: RepositoryDataSource, @unchecked Sendable {
        // @unchecked: `log` is locked; `inner` is thread-safe.
        typealias Cache = [String]
        typealias Requirements = TestRequirements
        typealias FetchResult = [String]
        typealias FetchError = any Error

        static let key = DispatchSpecificKey<String>()
        let inner = InMemoryDataSource()
        let log = Locked<[String]>([])
        let maxAgeOfCache = Period(unit: 1, component: .hour)

        private func record(_ member: String) {
            let queue = DispatchQueue.getSpecific(key: Self.key) ?? "other"
            log.withLock { $0.append("\(member) on \(queue)") }
        }

        func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<[String], any Error>> {
            record("fetch")
            return .just(.success(["a"]))
        }

        func saveCache(_ cache: [String], requirements: TestRequirements) throws {
            record("save")
            try inner.saveCache(cache, requirements: requirements)
        }

        func observeCache(requirements: TestRequirements) -> Observable<[String]> {
            record("observe")
            return inner.observeCache(requirements: requirements)
        }

        func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
            record("isCacheEmpty")
            return cache.isEmpty
        }
    }

    @Test func eachMemberRunsOnItsDocumentedScheduler() {
        let ui = DispatchQueue(label: "ui")
        ui.setSpecific(key: QueueRecordingDataSource.key, value: "ui")
        let background = DispatchQueue(label: "background", attributes: .concurrent)
        background.setSpecific(key: QueueRecordingDataSource.key, value: "background")
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: SerialDispatchQueueScheduler(queue: ui, internalSerialQueueName: "ui-serial"),
            backgroundScheduler: ConcurrentDispatchQueueScheduler(queue: background)
        )
        let dataSource = QueueRecordingDataSource()
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        let done = DispatchSemaphore(value: 0)
        let stateQueues = Locked<Set<String>>([])
        let subscription = repository.observe().subscribe(onNext: { state in
            stateQueues.withLock {
                _ = $0.insert(DispatchQueue.getSpecific(key: QueueRecordingDataSource.key) ?? "other")
            }
            if state.cache == ["a"] { done.signal() }
        })
        repository.requirements = TestRequirements(username: "octocat")
        #expect(done.wait(timeout: .now() + 30) == .success)
        subscription.dispose()
        let log = dataSource.log.value
        #expect(log.contains("fetch on background"))
        #expect(log.contains("save on background"))
        #expect(log.contains("observe on ui"))
        #expect(log.contains("isCacheEmpty on ui"))
        #expect(log.allSatisfy { !$0.hasSuffix("on other") })
        #expect(stateQueues.value == ["ui"])
    }
}

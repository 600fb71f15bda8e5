import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// At most one fetch per tag at a time: when a flight is cancelled and the next one starts at
/// once, the cancelled flight's fetch never starts after the next one began (disposal racing
/// the work `subscribe(on:)` scheduled), and its result is never saved after it.
///
/// Only a race shows this, so the test runs a bounded number of cancel-and-restart rounds on
/// real queues: two repositories of one type showing one tag, one cancelling its refresh on one
/// thread while the other starts one on another.
@Suite struct CancelledFlightFetchTests {
    /// Counts the fetches of one tag running at once (from the call until the answer or the
    /// disposal) and checks that each saved result comes from the fetch that started last.
    final class FetchRecord: Sendable {
        private struct State {
            var started = 0
            /// The fetches that neither answered nor were disposed yet.
            var running: Set<Int> = []
            var maximum = 0
            var problems: [String] = []
        }

        private let state = Locked(State())
        private let network = DispatchQueue(label: "cancelled-flight.network", attributes: .concurrent)

        var maximumAtOnce: Int {
            state.value.maximum
        }

        var problems: [String] {
            state.value.problems
        }

        /// A fetch answering `["fetch n"]` a moment later, unless disposed first.
        func fetch() -> Single<FetchResponse<[String], any Error>> {
            Single.create { [self] single in
                let number = state.withLock { state -> Int in
                    state.started += 1
                    if !state.running.isEmpty {
                        state.problems.append("fetch \(state.started) started while \(state.running.sorted()) ran")
                    }
                    state.running.insert(state.started)
                    state.maximum = max(state.maximum, state.running.count)
                    return state.started
                }
                network.asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...1_000))) { [self] in
                    if end(number) { single(.success(.success(["fetch \(number)"]))) }
                }
                return Disposables.create { [self] in _ = end(number) }
            }
        }

        /// Fetch `number` answers or is disposed, whichever comes first: `false` for the second.
        /// One step under the record's lock: a fetch that decided to answer has ended by then,
        /// so a disposal that finds it ended may let the next fetch start at once.
        private func end(_ number: Int) -> Bool {
            state.withLock { $0.running.remove(number) != nil }
        }

        func saving(_ cache: [String]) {
            state.withLock { state in
                if cache != ["fetch \(state.started)"] {
                    state.problems.append("\(cache) saved after fetch \(state.started) started")
                }
            }
        }
    }

    final class RecordedDataSource: RepositoryDataSource, @unchecked Sendable {
        // @unchecked: `inner` and `record` are thread-safe.
        typealias Cache = [String]
        typealias Requirements = TestRequirements
        typealias FetchResult = [String]
        typealias FetchError = any Error

        let maxAgeOfCache = Period(unit: 1, component: .hour)
        let automaticallyRefresh = false
        let inner = InMemoryDataSource()
        let record: FetchRecord

        init(record: FetchRecord) {
            self.record = record
        }

        func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<[String], any Error>> {
            record.fetch()
        }

        func saveCache(_ cache: [String], requirements: TestRequirements) throws {
            record.saving(cache)
            try inner.saveCache(cache, requirements: requirements)
        }

        func observeCache(requirements: TestRequirements) -> Observable<[String]> {
            inner.observeCache(requirements: requirements)
        }

        func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
            cache.isEmpty
        }
    }

    @Test func aCancelledFlightsFetchNeverRunsOrSavesAlongsideTheNextFlightsFetch() throws {
        let teller = LabelledQueues().teller()
        let record = FetchRecord()
        let repositories = (0..<2).map { _ in
            let repository = TellerRepository(dataSource: RecordedDataSource(record: record), teller: teller)
            repository.requirements = TestRequirements(username: "octocat")
            return repository
        }
        var running = try repositories[0].refresh(force: true).subscribe()
        for round in 1...15_000 {
            let leaving = running
            let next = Locked<(any Disposable)?>(nil)
            // One thread cancels the flight (its only caller leaves) while the other starts the next.
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    leaving.dispose()
                } else {
                    let refresh = try? repositories[round % 2].refresh(force: true).subscribe()
                    next.withLock { $0 = refresh }
                }
            }
            running = try #require(next.value)
        }
        let done = DispatchSemaphore(value: 0)
        running.dispose()
        let last = try repositories[0].refresh(force: true).subscribe(onSuccess: { _ in done.signal() })
        #expect(done.wait(timeout: .now() + 60) == .success)
        last.dispose()

        #expect(record.maximumAtOnce == 1, "\(record.problems.prefix(10))")
        #expect(record.problems.isEmpty, "\(record.problems.prefix(10))")
    }
}

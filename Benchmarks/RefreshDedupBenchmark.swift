import Dispatch
import Foundation
import Teller
import TellerRx

/// Refresh deduplication: `calls` concurrent `refresh(force: true)` for one tag from 8 threads,
/// against a fetch that completes only after every call joined it. One operation is one
/// joined call; the checksum is `fetches × 1,000,000 + answers`, so a run that performed more
/// than one fetch, or lost an answer, fails the harness's check. The one-call burst is a whole
/// refresh; its summary says where a run's time goes (``RefreshPhases``).
final class RefreshDedupBenchmark: Benchmark {
    let name: String
    let operations: Int
    /// One call is a whole refresh, measured against two thread wake-ups.
    let floor: String?
    var expectedResult: Int { 1_000_000 + operations }

    /// How many fetches the last run performed (it must be 1).
    private var fetches = 0
    private let phases: RefreshPhases?

    init(calls: Int) {
        name = "teller-refresh-dedup-\(calls)"
        operations = calls
        floor = calls == 1 ? floorName(name) : nil
        phases = calls == 1 ? RefreshPhases() : nil
    }

    func summary(medianRunNanoseconds: Double) -> String? {
        let calls = operations.formatted()
        let milliseconds = (medianRunNanoseconds / 1e6).formatted(.number.precision(.fractionLength(2)))
        let line =
            "\(name): \(calls) concurrent refresh(force: true) calls, \(fetches) fetch performed, \(milliseconds) ms"
        return phases?.summary().map { line + "\n" + $0 } ?? line
    }

    func run() -> Int {
        phases?.stamp(.start)
        let result = burst()
        phases?.stamp(.end)
        phases?.finishRun()
        return result
    }

    /// One burst; the repository and its `Teller` are released when it returns.
    private func burst() -> Int {
        let operations = self.operations
        let phases = self.phases
        let joined = CountdownLatch(target: operations)
        let teller = benchmarkTeller { event in
            switch event {
            case .refreshStarted, .refreshJoined: joined.countDown()
            default: break
            }
        }
        let dataSource = GatedDataSource(automaticallyRefresh: false, phases: phases)
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        repository.requirements = BenchmarkRequirements(tag: "dedup")
        phases?.stamp(.requirementsSet)
        guard let refresh = try? repository.refresh(force: true) else { return -1 }

        let answered = CountdownLatch(target: operations)
        let threads = min(8, operations)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let share = operations / threads + (thread < operations % threads ? 1 : 0)
            for _ in 0..<share {
                _ = refresh.subscribe(onSuccess: { _ in
                    phases?.stamp(.answered)
                    answered.countDown()
                })
            }
        }
        joined.wait()
        dataSource.gate.onNext(.success(1))
        answered.wait()
        phases?.stamp(.woken)
        fetches = dataSource.fetches
        return withExtendedLifetime(repository) { dataSource.fetches * 1_000_000 + operations }
    }
}

/// State fan-out: one repository with `observers` observers, `updates` cache updates; one
/// operation is one state delivered to one observer.
final class StateFanOutBenchmark: Benchmark {
    static let workload = "teller-state-fan-out"
    let name = StateFanOutBenchmark.workload
    let floor: String? = floorName(StateFanOutBenchmark.workload)
    let observers = 1_000
    let updates = 1_000
    var operations: Int { observers * updates }
    var expectedResult: Int { operations }

    func summary(medianRunNanoseconds: Double) -> String? {
        let milliseconds = (medianRunNanoseconds / 1e6).formatted(.number.precision(.fractionLength(1)))
        return "\(name): \(observers.formatted()) observers × \(updates.formatted()) cache updates, "
            + "\(operations.formatted()) states delivered, \(milliseconds) ms"
    }

    func run() -> Int {
        let dataSource = GatedDataSource(automaticallyRefresh: false)
        let teller = benchmarkTeller()
        teller.metadataStore.setMetadataIgnoringErrors(for: "fan-out")
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        let delivered = CountdownLatch(target: operations)
        let ready = CountdownLatch(target: observers)
        var subscriptions: [any Disposable] = []
        repository.requirements = BenchmarkRequirements(tag: "fan-out")
        for _ in 0..<observers {
            let sawFirst = Accumulator()
            subscriptions.append(
                repository.observe().subscribe(onNext: { state in
                    guard let value = state.cache, value > 0 else {
                        if sawFirst.value == 0 {
                            sawFirst.value = 1
                            ready.countDown()
                        }
                        return
                    }
                    delivered.countDown()
                })
            )
        }
        ready.wait()
        for update in 1...updates {
            dataSource.cache.onNext(update)
        }
        delivered.wait()
        for subscription in subscriptions { subscription.dispose() }
        return withExtendedLifetime(repository) { operations }
    }
}

extension FetchMetadataStore {
    /// Marks `tag` as fetched now, so a repository observes its cache without fetching.
    fileprivate func setMetadataIgnoringErrors(for tag: String) {
        try? setMetadata(FetchMetadata(lastFetched: Date()), forTag: tag)
    }
}

/// The Teller workloads: refresh deduplication at several fan-ins, state fan-out, and the first
/// cached state on launch.
func addTellerBenchmarks(to suite: inout BenchmarkSuite) {
    for calls in [1, 10, 100, 1_000, 10_000] {
        suite.add(RefreshDedupBenchmark(calls: calls))
    }
    suite.add(RefreshRoundTripFloor(name: floorName("teller-refresh-dedup-1")))
    suite.add(StateFanOutBenchmark())
    suite.add(StateFanOutFloor(name: floorName(StateFanOutBenchmark.workload)))
    suite.add(FirstCachedStateBenchmark())
    suite.add(FirstCachedStateFloor())
}

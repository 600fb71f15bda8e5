import Foundation
import Teller
import TellerRx

/// The floor of ``StateFanOutBenchmark``: the same 1,000 observers × 1,000 states through a bare
/// `PublishSubject`, with no repository, mailbox or scheduler hop. One operation is one state
/// delivered to one observer; the ratio says what the repository adds to plain fan-out.
final class StateFanOutFloor: Benchmark {
    let name: String
    let observers = 1_000
    let updates = 1_000
    var operations: Int { observers * updates }
    var expectedResult: Int { operations }

    init(name: String) {
        self.name = name
    }

    func run() -> Int {
        let subject = PublishSubject<CacheState<Int>>()
        let delivered = Accumulator()
        var subscriptions: [any Disposable] = []
        for _ in 0..<observers {
            subscriptions.append(
                subject.subscribe(onNext: { state in
                    if let value = state.cache, value > 0 { delivered.value += 1 }
                })
            )
        }
        let requirements = BenchmarkRequirements(tag: "fan-out")
        let fetched = Date()
        for update in 1...updates {
            subject.onNext(CacheState(state: .cache(cache: update, cacheAge: fetched), requirements: requirements))
        }
        for subscription in subscriptions { subscription.dispose() }
        return delivered.value
    }
}

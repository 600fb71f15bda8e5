import TellerRx

/// `Single` workloads: the trait machinery a Teller refresh goes through once per caller.
func addSingleBenchmarks(to suite: inout BenchmarkSuite) {
    suite.add(SingleCreateSubscribeBenchmark())
    suite.add(SingleDeferredSuccessBenchmark())
    suite.add(SingleZipBenchmark())
}

/// 100,000 times: `Single.create` with a closure that succeeds at once, `subscribe(onSuccess:)`
/// into a summing closure. One operation is one create, subscription and success.
final class SingleCreateSubscribeBenchmark: Benchmark {
    let name = "single-create-subscribe"
    let operations = 100_000
    var expectedResult: Int { operations }

    func run() -> Int {
        let sum = Accumulator()
        for _ in 0..<operations {
            let single = Single<Int>.create { single in
                single(.success(1))
                return Disposables.create()
            }
            _ = single.subscribe(onSuccess: { sum.value += $0 })
        }
        return sum.value
    }
}

/// 100,000 times: `Single.zip` of two `Single.just` with a summing result selector, and of two
/// more into a tuple, each subscribed with `subscribe(onSuccess:)`. One operation is one zip of
/// each form, its subscription and success.
final class SingleZipBenchmark: Benchmark {
    let name = "single-zip"
    let operations = 100_000
    var expectedResult: Int { 6 * operations }

    func run() -> Int {
        let sum = Accumulator()
        for _ in 0..<operations {
            _ = Single.zip(Single.just(1), Single.just(2)) { $0 + $1 }.subscribe(onSuccess: { sum.value += $0 })
            _ = Single.zip(Single.just(1), Single.just(2)).subscribe(onSuccess: { sum.value += $0.0 + $0.1 })
        }
        return sum.value
    }
}

/// The shape of a Teller refresh burst: one `Single.create` whose closure stores its observer
/// and returns a cancelling disposable; 100,000 `subscribe(onSuccess:)`, then every stored
/// observer succeeds. One operation is one subscription and its later success.
final class SingleDeferredSuccessBenchmark: Benchmark {
    let name = "single-deferred-success"
    let operations = 100_000
    var expectedResult: Int { operations }

    func run() -> Int {
        let sum = Accumulator()
        let pending = PendingSingles()
        let single = Single<Int>.create { single in
            pending.observers.append(single)
            return Disposables.create { pending.cancelled += 1 }
        }
        var subscriptions: [any Disposable] = []
        subscriptions.reserveCapacity(operations)
        for _ in 0..<operations {
            subscriptions.append(single.subscribe(onSuccess: { sum.value += $0 }))
        }
        for observer in pending.observers {
            observer(.success(1))
        }
        pending.observers.removeAll()
        subscriptions.removeAll()
        // A success disposes the create closure's disposable, as a cancelled refresh would.
        return pending.cancelled == operations ? sum.value : -1
    }
}

/// The observers a deferred workload's `Single.create` closure stored, and how many of the
/// disposables it returned were disposed.
private final class PendingSingles: @unchecked Sendable {
    // @unchecked: each workload touches it from the one thread that runs the benchmark.
    var observers: [@Sendable (SingleEvent<Int>) -> Void] = []
    var cancelled = 0
}

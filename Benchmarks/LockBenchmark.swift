@_spi(TellerInternals) import TellerRx

/// The package's one lock, uncontended: 10,000,000 `LockedState<Int>.withLock { $0 += 1 }`
/// on one thread, as every subject emission and most operator steps take it at least once.
/// One operation is one acquisition and release.
final class LockBenchmark: Benchmark {
    let name: String
    let floor: String?
    let operations = 10_000_000
    var expectedResult: Int { operations }

    init(name: String, floor: String) {
        self.name = name
        self.floor = floor
    }

    func run() -> Int {
        let counter = LockedState(0)
        for _ in 0..<operations {
            increment(counter)
        }
        return counter.value
    }

    /// Out of line, as the floor's increment is, so that both loops make a real call.
    @inline(never)
    private func increment(_ counter: LockedState<Int>) {
        counter.withLock { $0 += 1 }
    }
}

/// The primitives' workloads.
func addPrimitiveBenchmarks(to suite: inout BenchmarkSuite) {
    let lock = "locked-state-increment"
    suite.add(LockBenchmark(name: lock, floor: floorName(lock)))
}

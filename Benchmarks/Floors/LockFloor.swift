/// Floor for `locked-state-increment`: the same 10,000,000 increments through an out-of-line
/// call, with no lock.
final class LockFloor: Benchmark {
    let name: String
    let operations = 10_000_000
    var expectedResult: Int { operations }

    init(name: String) {
        self.name = name
    }

    func run() -> Int {
        let sum = Accumulator()
        for _ in 0..<operations {
            increment(sum)
        }
        return sum.value
    }

    @inline(never)
    private func increment(_ sum: Accumulator) {
        sum.value += 1
    }
}

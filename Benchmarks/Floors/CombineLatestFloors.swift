/// Floor for `combine-latest-7-pumping`: a four-source ``ClosureStream`` combineLatest of
/// three `just(1)` and the 100,000-element source, then six more levels each combining the
/// previous level with three `just(1)`.
final class CombineLatestPumpingFloor: Benchmark {
    let name: String
    let operations = 100_000
    var expectedResult: Int { operations }

    init(name: String) {
        self.name = name
    }

    func run() -> Int {
        let sum = Accumulator()
        var last = ClosureStream.combineLatest(
            .just(1),
            .just(1),
            .just(1),
            .ones(operations)
        ) { element, _, _, _ in element }
        for _ in 0..<6 {
            last = ClosureStream.combineLatest(.just(1), .just(1), .just(1), last) { element, _, _, _ in element }
        }
        last.subscribe { sum.value += $0 }
        return sum.value
    }
}

/// Floor for `combine-latest-7-creating`: 10,000 times, build and subscribe the seven-level
/// nest with the one-element source first at the innermost level.
final class CombineLatestCreatingFloor: Benchmark {
    let name: String
    let operations = 10_000
    var expectedResult: Int { operations }

    init(name: String) {
        self.name = name
    }

    func run() -> Int {
        let sum = Accumulator()
        for _ in 0..<operations {
            var last = ClosureStream.combineLatest(.ones(1), .just(1), .just(1), .just(1)) { element, _, _, _ in element
            }
            for _ in 0..<6 {
                last = ClosureStream.combineLatest(last, .just(1), .just(1), .just(1)) { element, _, _, _ in element }
            }
            last.subscribe { sum.value += $0 }
        }
        return sum.value
    }
}

/// Floor for `map-filter-6-pumping`: the ``ClosureStream`` chain of six map/filter pairs over a
/// source of 100,000 ones, into a summing closure. Per element: thirteen closure calls for the
/// stages plus the twelve transform/predicate calls.
final class MapFilterPumpingFloor: Benchmark {
    let name: String
    let operations = 100_000
    var expectedResult: Int { operations }

    init(name: String) {
        self.name = name
    }

    func run() -> Int {
        let sum = Accumulator()
        mapFilterChain(ClosureStream.ones(operations)).subscribe { sum.value += $0 }
        return sum.value
    }
}

/// Floor for `map-filter-6-creating`: 10,000 times, build the ``ClosureStream`` chain over a
/// one-element source (one closure per stage, as TellerRx allocates one producer per stage)
/// and subscribe (one closure per stage, as TellerRx allocates one sink per stage).
final class MapFilterCreatingFloor: Benchmark {
    let name: String
    let operations = 10_000
    var expectedResult: Int { operations }

    init(name: String) {
        self.name = name
    }

    func run() -> Int {
        let sum = Accumulator()
        for _ in 0..<operations {
            mapFilterChain(ClosureStream.ones(1)).subscribe { sum.value += $0 }
        }
        return sum.value
    }
}

/// Six `map { $0 }.filter { _ in true }` pairs, as in RxSwift's benchmark.
private func mapFilterChain(_ source: ClosureStream) -> ClosureStream {
    var stream = source
    for _ in 0..<6 {
        stream = stream.map { $0 }.filter { _ in true }
    }
    return stream
}

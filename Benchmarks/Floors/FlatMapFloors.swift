/// Floor for `flat-map-5-pumping` and `flat-map-latest-5-pumping`: five ``ClosureStream``
/// flatMap (or flatMapLatest) stages, each making a `just` closure per element and
/// subscribing to it, over a source of 100,000 ones.
final class FlatMapPumpingFloor: Benchmark {
    let name: String
    let operations = 100_000
    let latest: Bool
    var expectedResult: Int { operations }

    init(name: String, latest: Bool) {
        self.name = name
        self.latest = latest
    }

    func run() -> Int {
        let sum = Accumulator()
        flatMapChain(ClosureStream.ones(operations), latest: latest).subscribe { sum.value += $0 }
        return sum.value
    }
}

/// Floor for `flat-map-5-creating` and `flat-map-latest-5-creating`: 10,000 times, build and
/// subscribe the five-stage chain over a one-element source.
final class FlatMapCreatingFloor: Benchmark {
    let name: String
    let operations = 10_000
    let latest: Bool
    var expectedResult: Int { operations }

    init(name: String, latest: Bool) {
        self.name = name
        self.latest = latest
    }

    func run() -> Int {
        let sum = Accumulator()
        for _ in 0..<operations {
            flatMapChain(ClosureStream.ones(1), latest: latest).subscribe { sum.value += $0 }
        }
        return sum.value
    }
}

/// Five `flatMap { .just($0) }` (or `flatMapLatest`) stages, as in RxSwift's benchmark.
private func flatMapChain(_ source: ClosureStream, latest: Bool) -> ClosureStream {
    var stream = source
    for _ in 0..<5 {
        stream =
            latest
            ? stream.flatMapLatest { ClosureStream.just($0) }
            : stream.flatMap { ClosureStream.just($0) }
    }
    return stream
}

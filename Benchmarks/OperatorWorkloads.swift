import TellerRx

/// flatMap, flatMapLatest and combineLatest workloads.
func addOperatorBenchmarks(to suite: inout BenchmarkSuite) {
    let flatMapPumping = "flat-map-5-pumping"
    suite.add(FlatMapPumpingBenchmark(name: flatMapPumping, latest: false, floor: floorName(flatMapPumping)))
    let flatMapCreating = "flat-map-5-creating"
    suite.add(FlatMapCreatingBenchmark(name: flatMapCreating, latest: false, floor: floorName(flatMapCreating)))
    let latestPumping = "flat-map-latest-5-pumping"
    suite.add(FlatMapPumpingBenchmark(name: latestPumping, latest: true, floor: floorName(latestPumping)))
    let latestCreating = "flat-map-latest-5-creating"
    suite.add(FlatMapCreatingBenchmark(name: latestCreating, latest: true, floor: floorName(latestCreating)))
    let combinePumping = "combine-latest-7-pumping"
    suite.add(CombineLatestPumpingBenchmark(name: combinePumping, floor: floorName(combinePumping)))
    let combineCreating = "combine-latest-7-creating"
    suite.add(CombineLatestCreatingBenchmark(name: combineCreating, floor: floorName(combineCreating)))
}

/// RxSwift's `testFlatMapsPumping` (and `testFlatMapLatestPumping`): `Observable.create` sends
/// 100,000 ones through five `.flatMap { Observable.just($0) }` (or `.flatMapLatest`) into a
/// summing subscriber. One operation is one element through the whole chain.
final class FlatMapPumpingBenchmark: Benchmark {
    let name: String
    let floor: String?
    let operations = 100_000
    let latest: Bool
    var expectedResult: Int { operations }

    init(name: String, latest: Bool, floor: String) {
        self.name = name
        self.latest = latest
        self.floor = floor
    }

    func run() -> Int {
        let sum = Accumulator()
        let count = operations
        let source = Observable<Int>.create { observer in
            for _ in 0..<count {
                observer.on(.next(1))
            }
            return Disposables.create()
        }
        let subscription = flatMapChain(source, latest: latest).subscribe(onNext: { sum.value += $0 })
        subscription.dispose()
        return sum.value
    }
}

/// RxSwift's `testFlatMapsCreating` (and `testFlatMapLatestCreating`): 10,000 times, build the
/// five stages over an `Observable.create` that sends one element, subscribe, dispose.
final class FlatMapCreatingBenchmark: Benchmark {
    let name: String
    let floor: String?
    let operations = 10_000
    let latest: Bool
    var expectedResult: Int { operations }

    init(name: String, latest: Bool, floor: String) {
        self.name = name
        self.latest = latest
        self.floor = floor
    }

    func run() -> Int {
        let sum = Accumulator()
        for _ in 0..<operations {
            let source = Observable<Int>.create { observer in
                observer.on(.next(1))
                return Disposables.create()
            }
            let subscription = flatMapChain(source, latest: latest).subscribe(onNext: { sum.value += $0 })
            subscription.dispose()
        }
        return sum.value
    }
}

/// Five `flatMap { Observable.just($0) }` stages, or five `flatMapLatest` ones, as in RxSwift's
/// benchmark.
private func flatMapChain(_ source: Observable<Int>, latest: Bool) -> Observable<Int> {
    var stream = source
    for _ in 0..<5 {
        stream = latest ? stream.flatMapLatest { Observable.just($0) } : stream.flatMap { Observable.just($0) }
    }
    return stream
}

/// The selector of every combineLatest level: its first source's element, as RxSwift's
/// benchmark does.
@Sendable private func firstOfFour(_ first: Int, _: Int, _: Int, _: Int) -> Int {
    first
}

/// RxSwift's `testCombineLatestPumping`: a 4-ary `combineLatest` of three `Observable.just(1)`
/// and the 100,000-element source, nested seven levels deep (each level combines three
/// `just(1)` with the previous level), into a summing subscriber.
final class CombineLatestPumpingBenchmark: Benchmark {
    let name: String
    let floor: String?
    let operations = 100_000
    var expectedResult: Int { operations }

    init(name: String, floor: String) {
        self.name = name
        self.floor = floor
    }

    func run() -> Int {
        let sum = Accumulator()
        let count = operations
        let source = Observable<Int>.create { observer in
            for _ in 0..<count {
                observer.on(.next(1))
            }
            return Disposables.create()
        }
        let one = Observable.just(1)
        var last = Observable.combineLatest(one, one, one, source, resultSelector: firstOfFour)
        for _ in 0..<6 {
            last = Observable.combineLatest(one, one, one, last, resultSelector: firstOfFour)
        }
        let subscription = last.subscribe(onNext: { sum.value += $0 })
        subscription.dispose()
        return sum.value
    }
}

/// RxSwift's `testCombineLatestCreating`: 10,000 times, the seven-level nest over an
/// `Observable.create` that sends one element (first at the innermost level), subscribed and
/// disposed.
final class CombineLatestCreatingBenchmark: Benchmark {
    let name: String
    let floor: String?
    let operations = 10_000
    var expectedResult: Int { operations }

    init(name: String, floor: String) {
        self.name = name
        self.floor = floor
    }

    func run() -> Int {
        let sum = Accumulator()
        for _ in 0..<operations {
            let source = Observable<Int>.create { observer in
                observer.on(.next(1))
                return Disposables.create()
            }
            var last = Observable.combineLatest(
                source,
                Observable.just(1),
                Observable.just(1),
                Observable.just(1),
                resultSelector: firstOfFour
            )
            for _ in 0..<6 {
                last = Observable.combineLatest(
                    last,
                    Observable.just(1),
                    Observable.just(1),
                    Observable.just(1),
                    resultSelector: firstOfFour
                )
            }
            let subscription = last.subscribe(onNext: { sum.value += $0 })
            subscription.dispose()
        }
        return sum.value
    }
}

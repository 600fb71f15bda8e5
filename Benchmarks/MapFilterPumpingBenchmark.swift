import TellerRx

/// RxSwift's `testMapFilterPumping`: `Observable.create` sends 100,000 ones through six
/// `.map { $0 }.filter { _ in true }` pairs into a summing `subscribe(onNext:)`. One operation
/// is one element through the whole chain.
final class MapFilterPumpingBenchmark: Benchmark {
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
        let subscription = Observable<Int>.create { observer in
            for _ in 0..<count {
                observer.on(.next(1))
            }
            return Disposables.create()
        }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .subscribe(onNext: { sum.value += $0 })
        subscription.dispose()
        return sum.value
    }
}

import TellerRx

/// RxSwift's `testMapFilterCreating`: 10,000 times, build the six map/filter pairs over an
/// `Observable.create` that sends one element, subscribe, dispose. One operation is one such
/// cycle.
final class MapFilterCreatingBenchmark: Benchmark {
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
            let subscription = Observable<Int>.create { observer in
                observer.on(.next(1))
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
        }
        return sum.value
    }
}

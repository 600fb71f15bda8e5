import TellerRx

/// RxSwift's `testPublishSubjectCreating`: 100,000 times, a new `PublishSubject<Int>`, one
/// `subscribe(onNext:)` subscriber, one `onNext(1)`, dispose. One operation is one such cycle.
final class SubjectCreatingBenchmark: Benchmark {
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
        for _ in 0..<operations {
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(onNext: { sum.value += $0 })
            subject.on(.next(1))
            subscription.dispose()
        }
        return sum.value
    }
}

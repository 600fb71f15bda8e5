import TellerRx

/// RxSwift's `testPublishSubjectPumping` (and `…TwoSubscriptions`): one `PublishSubject<Int>`,
/// one (two) `subscribe(onNext:)` subscribers adding to a sum, 1,000,000 `onNext(1)`.
/// One operation is one `onNext`.
final class SubjectPumpingBenchmark: Benchmark {
    let name: String
    let floor: String?
    let operations = 1_000_000
    let subscribers: Int
    var expectedResult: Int { operations * subscribers }

    init(name: String, subscribers: Int, floor: String) {
        self.name = name
        self.subscribers = subscribers
        self.floor = floor
    }

    func run() -> Int {
        let sum = Accumulator()
        let subject = PublishSubject<Int>()
        let subscriptions = (0..<subscribers).map { _ in
            subject.subscribe(onNext: { sum.value += $0 })
        }
        for _ in 0..<operations {
            subject.on(.next(1))
        }
        for subscription in subscriptions { subscription.dispose() }
        return sum.value
    }
}

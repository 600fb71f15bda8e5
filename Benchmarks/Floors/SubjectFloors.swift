/// Floor for `publish-subject-pumping` (and the two-subscriber variant): a ``ClosureSubject``
/// with one (two) summing handlers, sent 1,000,000 ones.
final class SubjectPumpingFloor: Benchmark {
    let name: String
    let operations = 1_000_000
    let subscribers: Int
    var expectedResult: Int { operations * subscribers }

    init(name: String, subscribers: Int) {
        self.name = name
        self.subscribers = subscribers
    }

    func run() -> Int {
        let sum = Accumulator()
        let subject = ClosureSubject()
        let tokens = (0..<subscribers).map { _ in subject.subscribe { sum.value += $0 } }
        for _ in 0..<operations {
            subject.send(1)
        }
        for token in tokens { subject.unsubscribe(token) }
        return sum.value
    }
}

/// Floor for `publish-subject-creating`: 100,000 times, a new ``ClosureSubject``, one summing
/// handler (a closure allocated per subscription, as `subscribe(onNext:)` must), one element,
/// unsubscribe.
final class SubjectCreatingFloor: Benchmark {
    let name: String
    let operations = 100_000
    var expectedResult: Int { operations }

    init(name: String) {
        self.name = name
    }

    func run() -> Int {
        let sum = Accumulator()
        for _ in 0..<operations {
            let subject = ClosureSubject()
            let token = subject.subscribe { sum.value += $0 }
            subject.send(1)
            subject.unsubscribe(token)
        }
        return sum.value
    }
}

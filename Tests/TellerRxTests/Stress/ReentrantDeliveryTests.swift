import TellerRx
import Testing

/// Re-entrancy is designed out of the multi-source operators: none holds a lock (recursive or
/// not) while it delivers. An event that the observer sends, from inside `onNext` and on the
/// same thread, into another of the operator's sources is handled once that `onNext` has
/// returned, never inside it, and nothing is lost or reordered. (With a recursive lock the
/// second delivery would nest inside the first: "begin 1", "begin 2", "end 2", "end 1".)
///
/// Each case is built over two subjects: `first` sends 1, the observer sends 2 into `second`
/// from inside `onNext(1)`, then `first` sends 3.
@Suite struct ReentrantDeliveryTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        /// The elements the observer gets, in order.
        let expected: [Int]
        let build: @Sendable (_ first: PublishSubject<Int>, _ second: PublishSubject<Int>) -> Observable<Int>
    }

    static let cases: [Case] = [
        Case(description: "merge", expected: [1, 2, 3]) { first, second in
            Observable.merge(first.asObservable(), second.asObservable())
        },
        Case(description: "flatMap, two live inners", expected: [1, 2, 3]) { first, second in
            Observable.of(first, second).concat(Observable.never()).flatMap { $0 }
        },
        Case(description: "flatMap, outer during inner (just)", expected: [1, 2, 3]) { first, second in
            second.startWith(0).flatMap { $0 == 0 ? first.asObservable() : Observable.just($0) }
        },
        Case(description: "flatMap, outer during inner (live)", expected: [1, 2, 3]) { first, second in
            second.startWith(0).flatMap { $0 == 0 ? first.asObservable() : Observable.of($0) }
        },
        Case(description: "merge(maxConcurrent:)", expected: [1, 2, 3]) { first, second in
            second.startWith(0).map { $0 == 0 ? first.asObservable() : Observable.of($0) }.merge(maxConcurrent: 2)
        },
        Case(description: "concatMap (the outer element waits)", expected: [1, 3]) { first, second in
            second.startWith(0).concatMap { $0 == 0 ? first.asObservable() : Observable.just($0) }
        },
        Case(description: "flatMapFirst (the outer element is dropped)", expected: [1, 3]) { first, second in
            second.startWith(0).flatMapFirst { $0 == 0 ? first.asObservable() : Observable.just($0) }
        },
        Case(description: "flatMapLatest (just)", expected: [1, 2]) { first, second in
            second.startWith(0).flatMapLatest { $0 == 0 ? first.asObservable() : Observable.just($0) }
        },
        Case(description: "flatMapLatest (live)", expected: [1, 2]) { first, second in
            second.startWith(0).flatMapLatest { $0 == 0 ? first.asObservable() : Observable.of($0) }
        },
        Case(description: "combineLatest(_:_:)", expected: [1, 3, 5]) { first, second in
            Observable.combineLatest(first, second.startWith(0)) { $0 + $1 }
        },
        Case(description: "combineLatest(collection)", expected: [1, 3, 5]) { first, second in
            Observable.combineLatest([first.asObservable(), second.startWith(0)]).map { $0[0] + $0[1] }
        },
        Case(description: "zip(_:_:)", expected: [1, 5]) { first, second in
            Observable.zip(first, second.startWith(0)) { $0 + $1 }
        },
        Case(description: "zip(collection)", expected: [1, 5]) { first, second in
            Observable.zip([first.asObservable(), second.startWith(0)]).map { $0[0] + $0[1] }
        },
    ]

    @Test(arguments: cases)
    func anElementSentFromInsideOnNextIsHandledAfterItReturns(_ testCase: Case) {
        let run = Self.run(testCase) { $0.onNext(2) }
        #expect(run.log == testCase.expected.flatMap { ["begin \($0)", "end \($0)"] })
    }

    @Test(arguments: cases)
    func anErrorSentFromInsideOnNextEndsTheSequenceAfterItReturns(_ testCase: Case) {
        let run = Self.run(testCase) { $0.onError(TestError(1)) }
        #expect(run.log == ["begin 1", "end 1", "error"])
        #expect(!run.firstStillObserved)
    }

    /// Subscribes to the case's operator, sends 1 then 3 through `first`, and calls `reenter`
    /// with `second` from inside `onNext(1)`. Returns what the observer logged, and whether
    /// `first` was still subscribed at the end.
    private static func run(
        _ testCase: Case,
        reenter: @escaping @Sendable (PublishSubject<Int>) -> Void
    ) -> (log: [String], firstStillObserved: Bool) {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let log = Locked<[String]>([])
        let subscription = testCase.build(first, second)
            .subscribe(
                onNext: { value in
                    log.withLock { $0.append("begin \(value)") }
                    if value == 1 { reenter(second) }
                    log.withLock { $0.append("end \(value)") }
                },
                onError: { _ in log.withLock { $0.append("error") } }
            )
        first.onNext(1)
        first.onNext(3)
        let firstStillObserved = first.hasObservers
        subscription.dispose()
        return (log.value, firstStillObserved)
    }
}

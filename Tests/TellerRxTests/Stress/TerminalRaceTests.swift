import TellerRx
import Testing

/// Real-thread tests: one thread sends elements into a multi-source operator while another
/// ends it with an error from a second source. Whoever wins, the observer gets the error exactly
/// once, nothing after it, and never two events at once; every source subscription is ended.
/// Run them under ThreadSanitizer too: the observer's unsynchronized recording makes any
/// overlap a race.
@Suite struct TerminalRaceTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        /// The operator under test over `elements` (which one thread feeds) and `failing`
        /// (which another fails), both primed with one element.
        let build: @Sendable (_ elements: PublishSubject<Int>, _ failing: PublishSubject<Int>) -> Observable<Int>
    }

    static let cases: [Case] = [
        Case(description: "merge") { elements, failing in
            Observable.merge(elements.asObservable(), failing.asObservable())
        },
        Case(description: "flatMap") { elements, failing in
            Observable.of(elements, failing).flatMap { $0 }
        },
        Case(description: "flatMap, failing outer") { elements, failing in
            failing.startWith(0).flatMap { _ in elements }
        },
        Case(description: "concatMap, failing outer") { elements, failing in
            failing.startWith(0).concatMap { _ in elements }
        },
        Case(description: "flatMapFirst, failing outer") { elements, failing in
            failing.startWith(0).flatMapFirst { _ in elements }
        },
        Case(description: "combineLatest(_:_:)") { elements, failing in
            Observable.combineLatest(elements, failing) { $0 + $1 }
        },
        Case(description: "combineLatest(collection)") { elements, failing in
            Observable.combineLatest([elements.asObservable(), failing.asObservable()]).map { $0[0] }
        },
        Case(description: "zip(_:_:)") { elements, failing in
            Observable.zip(elements, failing) { $0 + $1 }
        },
        Case(description: "zip(collection)") { elements, failing in
            Observable.zip([elements.asObservable(), failing.asObservable()]).map { $0[0] }
        },
        Case(description: "flatMapLatest, failing outer") { elements, failing in
            failing.startWith(0).flatMapLatest { _ in elements }
        },
    ]

    static let rounds = 200
    static let elementsPerRound = 200

    @Test(arguments: cases)
    func anErrorRacingElementsIsTheLastEventAndArrivesOnce(_ testCase: Case) {
        for _ in 0..<Self.rounds {
            let elements = PublishSubject<Int>()
            let failing = PublishSubject<Int>()
            let observer = OverlapCheckingObserver<Int>()
            let subscription = testCase.build(elements, failing).subscribe(observer)
            failing.onNext(0)
            elements.onNext(0)
            concurrently(2) { index in
                if index == 0 {
                    for value in 1...Self.elementsPerRound { elements.onNext(value) }
                } else {
                    failing.onError(TestError(1))
                }
            }
            #expect(observer.waitForTerminal())
            #expect(observer.overlaps == 0)
            #expect(observer.eventsAfterTerminal == 0)
            #expect(observer.terminalEvent?.error as? TestError == TestError(1))
            #expect(!elements.hasObservers)
            subscription.dispose()
        }
    }
}

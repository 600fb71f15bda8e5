import TellerRx
import Testing

/// Re-entrancy is designed out of the multi-source operators: none holds a lock (recursive or
/// not) while it delivers. An element that the observer sends back into a source from inside
/// `onNext`, on the same thread, is handled once that `onNext` has returned, never inside it,
/// and nothing is lost or reordered. (With a recursive lock the second element's delivery
/// would nest inside the first: "begin 1", "begin 2", "end 2", "end 1".)
@Suite struct ReentrantDeliveryTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        /// The operator under test over `source`, whose elements come out unchanged.
        let build: @Sendable (PublishSubject<Int>) -> Observable<Int>
    }

    static let cases: [Case] = [
        Case(description: "merge") { source in
            Observable.merge(source.asObservable(), Observable.never())
        },
        Case(description: "flatMap, just inners (the outer element path)") { source in
            source.flatMap { Observable.just($0) }
        },
        Case(description: "flatMap, a live inner (the inner element path)") { source in
            Observable.just(0).concat(Observable.never()).flatMap { _ in source }
        },
        Case(description: "merge(maxConcurrent:)") { source in
            source.map { Observable.just($0) }.merge(maxConcurrent: 1)
        },
        Case(description: "concatMap") { source in
            source.concatMap { Observable.just($0) }
        },
        Case(description: "flatMapFirst") { source in
            source.flatMapFirst { Observable.just($0) }
        },
        Case(description: "combineLatest(_:_:)") { source in
            Observable.combineLatest(source, Observable.just(0)) { $0 + $1 }
        },
        Case(description: "combineLatest(_:_:_:), two live sources") { source in
            let other = BehaviorSubject(value: 0)
            return Observable.combineLatest(other, source, Observable.just(0)) { $0 + $1 + $2 }
        },
        Case(description: "combineLatest(collection)") { source in
            Observable.combineLatest([source.asObservable(), Observable.just(0)]).map { $0[0] }
        },
        Case(description: "zip(_:_:)") { source in
            Observable.zip(source, Observable.of(0, 0, 0).concat(Observable.never())) { $0 + $1 }
        },
        Case(description: "zip(collection)") { source in
            Observable.zip([source.asObservable(), Observable.of(0, 0, 0).concat(Observable.never())]).map { $0[0] }
        },
        Case(description: "flatMapLatest, just inners (the outer element path)") { source in
            source.flatMapLatest { Observable.just($0) }
        },
        Case(description: "flatMapLatest, a live inner (the inner element path)") { source in
            Observable.just(0).concat(Observable.never()).flatMapLatest { _ in source }
        },
        Case(description: "switchLatest") { source in
            Observable.just(source.asObservable()).concat(Observable.never()).switchLatest()
        },
    ]

    @Test(arguments: cases)
    func anElementSentFromInsideOnNextIsDeliveredAfterItReturns(_ testCase: Case) {
        let source = PublishSubject<Int>()
        let log = Locked<[String]>([])
        let subscription = testCase.build(source)
            .subscribe(onNext: { value in
                log.withLock { $0.append("begin \(value)") }
                if value == 1 { source.onNext(2) }
                log.withLock { $0.append("end \(value)") }
            })
        source.onNext(1)
        source.onNext(3)
        #expect(log.value == ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"])
        subscription.dispose()
    }

    @Test(arguments: cases)
    func aTerminalEventSentFromInsideOnNextEndsTheSequenceAfterItReturns(_ testCase: Case) {
        let source = PublishSubject<Int>()
        let log = Locked<[String]>([])
        let subscription = testCase.build(source)
            .subscribe(
                onNext: { value in
                    log.withLock { $0.append("begin \(value)") }
                    if value == 1 {
                        source.onError(TestError(1))
                        source.onNext(2)
                    }
                    log.withLock { $0.append("end \(value)") }
                },
                onError: { _ in log.withLock { $0.append("error") } }
            )
        source.onNext(1)
        #expect(log.value == ["begin 1", "end 1", "error"])
        subscription.dispose()
    }
}

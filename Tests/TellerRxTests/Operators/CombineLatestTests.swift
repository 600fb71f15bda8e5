@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// Which public spelling of an arity overload a test goes through.
enum ArityVariant: CaseIterable, Sendable {
    case resultSelector
    case tuple
}

/// `combineLatest` of `sources` through the overload for their count, summing the elements.
private func combineLatestSum(_ s: [TestableObservable<Int>], _ variant: ArityVariant) -> Observable<Int> {
    switch (s.count, variant) {
    case (2, .resultSelector): Observable.combineLatest(s[0], s[1]) { $0 + $1 }
    case (3, .resultSelector): Observable.combineLatest(s[0], s[1], s[2]) { $0 + $1 + $2 }
    case (4, .resultSelector): Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
    case (5, .resultSelector): Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
    case (6, .resultSelector):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 }
    case (7, .resultSelector):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
    case (8, .resultSelector):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
            $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7
        }
    case (2, .tuple): Observable.combineLatest(s[0], s[1]).map { t in t.0 + t.1 }
    case (3, .tuple): Observable.combineLatest(s[0], s[1], s[2]).map { t in t.0 + t.1 + t.2 }
    case (4, .tuple): Observable.combineLatest(s[0], s[1], s[2], s[3]).map { t in t.0 + t.1 + t.2 + t.3 }
    case (5, .tuple): Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 }
    case (6, .tuple):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 }
    case (7, .tuple):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { t in
            t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6
        }
    case (8, .tuple):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { t in
            t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 + t.7
        }
    default: preconditionFailure("no combineLatest overload for \(s.count) sources")
    }
}

@Suite struct CombineLatestArityTests {
    @Test(arguments: 2...8, ArityVariant.allCases)
    func neverSourcesSendNothingAndStaySubscribed(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { _ in scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)]) }
        let res = scheduler.start { combineLatestSum(sources, variant) }
        #expect(res.events == [])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 1000)])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func emptySourcesCompleteWhenTheLastOneCompletes(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { i in
            scheduler.createHotObservable([.next(150, 1), Recorded<Event<Int>>.completed(210 + 10 * i)])
        }
        let res = scheduler.start { combineLatestSum(sources, variant) }
        #expect(res.events == [.completed(210 + 10 * (arity - 1))])
        for (i, source) in sources.enumerated() {
            #expect(source.subscriptions == [Subscription(200, 210 + 10 * i)])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func combinesTheLatestElementsOnceEverySourceHasSentOne(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { i in
            scheduler.createHotObservable([
                .next(150, 1000), .next(210 + i, i + 1), .next(410 + i, i + 11), .completed(800),
            ])
        }
        let res = scheduler.start { combineLatestSum(sources, variant) }
        let initialSum = arity * (arity + 1) / 2
        let expected: [Recorded<Event<Int>>] =
            [.next(210 + arity - 1, initialSum)] + (0..<arity).map { i in .next(410 + i, initialSum + 10 * (i + 1)) }
            + [.completed(800)]
        #expect(res.events == expected)
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 800)])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func errorFromAnySourceEndsAtOnceAndDisposesEverySource(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { i in
            scheduler.createHotObservable(
                i == arity - 1
                    ? [.next(210, 1), .error(250, TestError(i))]
                    : [.next(210, 1), .next(300, 2), .completed(400)]
            )
        }
        let res = scheduler.start { combineLatestSum(sources, variant) }
        #expect(res.events == [.next(210, arity), .error(250, TestError(arity - 1))])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 250)])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func completesWhenAnElementCanNeverBeCombined(arity: Int, variant: ArityVariant) {
        // RxSwift 6: sources that complete without elements do not end the result by
        // themselves; the first element from the remaining source does.
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { i in
            scheduler.createHotObservable(
                i == arity - 1
                    ? [.next(500, 1), .completed(900)]
                    : [Recorded<Event<Int>>.completed(250 + i)]
            )
        }
        let res = scheduler.start { combineLatestSum(sources, variant) }
        #expect(res.events == [.completed(500)])
        for (i, source) in sources.enumerated() {
            #expect(source.subscriptions == [Subscription(200, i == arity - 1 ? 500 : 250 + i)])
        }
    }

    @Test(arguments: 2...8)
    func errorThrownByTheResultSelectorEndsAtOnce(arity: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { i in scheduler.createHotObservable([.next(210 + i, i), .completed(800)]) }
        let res = scheduler.start {
            Observable<Int>.combineLatest(sources) { _ in throw TestError(7) }
        }
        #expect(res.events == [.error(210 + arity - 1, TestError(7))])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 210 + arity - 1)])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func disposingEarlyDisposesEverySource(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { i in
            scheduler.createHotObservable([.next(210, i), .next(300, i), .completed(800)])
        }
        let res = scheduler.start(disposed: 250) { combineLatestSum(sources, variant) }
        #expect(res.events == [.next(210, arity * (arity - 1) / 2)])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 250)])
        }
    }
}

@Suite struct CombineLatestTests {
    @Test func combinesSourcesOfDifferentElementTypesIntoTuples() {
        let scheduler = TestScheduler(initialClock: 0)
        let numbers = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let names = scheduler.createHotObservable([.next(220, "a"), .completed(250)])
        let res = scheduler.start { Observable.combineLatest(numbers, names).map { "\($0.0)\($0.1)" } }
        #expect(res.events == [.next(220, "1a"), .next(230, "2a"), .completed(300)])
    }

    @Test func aCompletedSourceIsDisposedAndItsLastElementKeepsBeingCombined() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(215, 2), .completed(220)])
        let ys = scheduler.createHotObservable([.next(230, 3), .next(240, 4), .error(250, TestError(1))])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        #expect(res.events == [.next(230, 5), .next(240, 6), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func aSourceThatCompletesEmptyDoesNotEndTheResultWhileOthersAreSilent() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { Observable.combineLatest(empty, never) { $0 + $1 } }
        #expect(res.events == [])
        #expect(empty.subscriptions == [Subscription(200, 210)])
        #expect(never.subscriptions == [Subscription(200, 1000)])
    }

    @Test func synchronousSourcesCombineTheLatestOfTheEarlierOnes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.combineLatest(Observable.of(1, 2, 3), Observable.of(10, 20)) { $0 + $1 }
        }
        #expect(res.events == [.next(200, 13), .next(200, 23), .completed(200)])
    }

    @Test func synchronousErrorDeliversOneError() {
        let errors = Locked(0)
        _ = Observable.combineLatest(Observable<Int>.error(TestError(1)), Observable.of(0, 1, 2)) { $0 + $1 }
            .subscribe(onError: { _ in errors.increment() })
        #expect(errors.value == 1)
    }

    @Test func reentrantElementIsCombinedAfterTheCurrentResult() {
        let subject = PublishSubject<Int>()
        let received = Locked<[Int]>([])
        let subscription = Observable.combineLatest(subject, Observable.just(100)) { $0 + $1 }
            .subscribe(onNext: { value in
                received.append(value)
                if value == 101 { subject.onNext(2) }
            })
        subject.onNext(1)
        #expect(received.value == [101, 102])
        subscription.dispose()
    }

    // MARK: `just` sources (taken at once, without an observer of their own)

    @Test func onlyJustSourcesSendOneResultThenComplete() {
        let res = TestScheduler(initialClock: 0).start {
            Observable.combineLatest(Observable.just(1), Observable.just(20), Observable.just(300)) { $0 + $1 + $2 }
        }
        #expect(res.events == [.next(200, 321), .completed(200)])
    }

    @Test func aJustBeforeAndAfterASequenceIsCombinedWithEachOfItsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start {
            Observable.combineLatest(Observable.just(100), xs, Observable.just(1_000)) { $0 + $1 + $2 }
        }
        #expect(res.events == [.next(210, 1_101), .next(220, 1_102), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func aJustWithASequenceThatFailsFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = scheduler.start { Observable.combineLatest(Observable.just(100), xs) { $0 + $1 } }
        #expect(res.events == [.next(210, 101), .error(220, TestError(1))])
    }

    @Test func aResultSelectorThatThrowsOnJustSourcesFailsAndIsNotCalledAgain() {
        let calls = Locked(0)
        let res = TestScheduler(initialClock: 0).start {
            Observable.combineLatest(Observable.just(1), Observable.just(2)) { _, _ -> Int in
                calls.increment()
                throw TestError(2)
            }
        }
        #expect(res.events == [.error(200, TestError(2))])
        #expect(calls.value == 1)
    }

    @Test func disposingFromTheResultOfAJustStopsTheOtherSources() {
        let subject = PublishSubject<Int>()
        let received = Locked<[Int]>([])
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(
            Observable.combineLatest(subject, Observable.just(100)) { $0 + $1 }
                .subscribe(onNext: { value in
                    received.append(value)
                    subscription.dispose()
                })
        )
        subject.onNext(1)
        subject.onNext(2)
        #expect(received.value == [101])
        #expect(!subject.hasObservers)
    }
}

@Suite struct CombineLatestCollectionTests {
    @Test func emptyCollectionSendsTheResultForNoElementsThenCompletes() {
        // RxSwift 6 calls the result selector once with `[]` before completing.
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.combineLatest([Observable<Int>]()) }
        #expect(res.events == [.next(200, []), .completed(200)])
        let summed = TestScheduler(initialClock: 0).start {
            Observable<Int>.combineLatest([Observable<Int>]()) { $0.reduce(100, +) }
        }
        #expect(summed.events == [.next(200, 100), .completed(200)])
    }

    @Test func emptyCollectionFailsWithTheErrorOfTheResultSelector() {
        let res = TestScheduler(initialClock: 0).start {
            Observable<Int>.combineLatest([Observable<Int>]()) { _ -> Int in throw TestError(6) }
        }
        #expect(res.events == [.error(200, TestError(6))])
    }

    @Test func combinesTheLatestElementsIntoArraysInCollectionOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.combineLatest([e0, e1, e2]) }
        #expect(
            res.events == [
                .next(230, [1, 2, 3]), .next(240, [1, 5, 3]), .next(250, [4, 5, 3]), .next(260, [4, 5, 6]),
                .completed(420),
            ]
        )
        #expect(e0.subscriptions == [Subscription(200, 420)])
        #expect(e1.subscriptions == [Subscription(200, 410)])
        #expect(e2.subscriptions == [Subscription(200, 400)])
    }

    @Test func resultSelectorReceivesTheLatestElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { Observable.combineLatest([e0, e1]) { $0.reduce(0, +) } }
        #expect(res.events == [.next(220, 3), .next(230, 4), .completed(300)])
    }

    @Test func errorEndsAtOnceAndDisposesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let e1 = scheduler.createHotObservable([.next(220, 2), .completed(400)])
        let res = scheduler.start { Observable.combineLatest([e0, e1]) }
        #expect(res.events == [.next(220, [1, 2]), .error(250, TestError(1))])
        #expect(e0.subscriptions == [Subscription(200, 250)])
        #expect(e1.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlyDisposesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .next(300, 3), .completed(400)])
        let res = scheduler.start(disposed: 250) { Observable.combineLatest([e0, e1]) }
        #expect(res.events == [.next(220, [1, 2])])
        #expect(e0.subscriptions == [Subscription(200, 250)])
        #expect(e1.subscriptions == [Subscription(200, 250)])
    }
}

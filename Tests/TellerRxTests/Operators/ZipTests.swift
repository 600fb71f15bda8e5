import TellerRx
import TellerTesting
import Testing

/// `zip` of `sources` through the overload for their count, summing each group.
private func zipSum(_ s: [TestableObservable<Int>], _ variant: ArityVariant) -> Observable<Int> {
    switch (s.count, variant) {
    case (2, .resultSelector): Observable.zip(s[0], s[1]) { $0 + $1 }
    case (3, .resultSelector): Observable.zip(s[0], s[1], s[2]) { $0 + $1 + $2 }
    case (4, .resultSelector): Observable.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
    case (5, .resultSelector): Observable.zip(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
    case (6, .resultSelector): Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 }
    case (7, .resultSelector):
        Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
    case (8, .resultSelector):
        Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
    case (2, .tuple): Observable.zip(s[0], s[1]).map { t in t.0 + t.1 }
    case (3, .tuple): Observable.zip(s[0], s[1], s[2]).map { t in t.0 + t.1 + t.2 }
    case (4, .tuple): Observable.zip(s[0], s[1], s[2], s[3]).map { t in t.0 + t.1 + t.2 + t.3 }
    case (5, .tuple): Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 }
    case (6, .tuple):
        Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 }
    case (7, .tuple):
        Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 }
    case (8, .tuple):
        Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { t in
            t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 + t.7
        }
    default: preconditionFailure("no zip overload for \(s.count) sources")
    }
}

@Suite struct ZipArityTests {
    @Test(arguments: 2...8, ArityVariant.allCases)
    func neverSourcesSendNothingAndStaySubscribed(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { _ in scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)]) }
        let res = scheduler.start { zipSum(sources, variant) }
        #expect(res.events == [])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 1000)])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func pairsElementsByIndexAndCompletesWhenEverySourceHasCompleted(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        // Source i sends i+1 at 210+i and i+11 at 300+10i, then completes at 500+i.
        let sources = (0..<arity).map { i in
            scheduler.createHotObservable([
                .next(150, 1000), .next(210 + i, i + 1), .next(300 + 10 * i, i + 11), .completed(500 + i),
            ])
        }
        let res = scheduler.start { zipSum(sources, variant) }
        let firstSum = arity * (arity + 1) / 2
        #expect(
            res.events == [
                .next(210 + arity - 1, firstSum), .next(300 + 10 * (arity - 1), firstSum + 10 * arity),
                .completed(500 + arity - 1),
            ]
        )
        for (i, source) in sources.enumerated() {
            #expect(source.subscriptions == [Subscription(200, 500 + i)])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func errorFromAnySourceEndsAtOnceAndDisposesEverySource(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { i in
            scheduler.createHotObservable(
                i == 0 ? [.next(210, 1), .error(250, TestError(1))] : [.next(210, 1), .completed(400)]
            )
        }
        let res = scheduler.start { zipSum(sources, variant) }
        #expect(res.events == [.next(210, arity), .error(250, TestError(1))])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 250)])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func disposingEarlyDisposesEverySource(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { i in scheduler.createHotObservable([.next(210, i), .completed(800)]) }
        let res = scheduler.start(disposed: 250) { zipSum(sources, variant) }
        #expect(res.events == [.next(210, arity * (arity - 1) / 2)])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 250)])
        }
    }

    @Test(arguments: 2...8)
    func errorThrownByTheResultSelectorEndsAtOnce(arity: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<arity).map { i in scheduler.createHotObservable([.next(210 + i, i), .completed(800)]) }
        let res = scheduler.start { Observable<Int>.zip(sources) { _ in throw TestError(7) } }
        #expect(res.events == [.error(210 + arity - 1, TestError(7))])
        for source in sources {
            #expect(source.subscriptions == [Subscription(200, 210 + arity - 1)])
        }
    }
}

@Suite struct ZipTests {
    @Test func aSourceThatCompletesFirstIsDisposedButTheResultWaitsForAllAsInRxSwift6() {
        // RxSwift 6's testZip_LeftCompletesFirst: the result completes when every source has.
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .next(215, 4), .completed(225)])
        let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
        #expect(res.events == [.next(215, 6), .completed(225)])
        #expect(o1.subscriptions == [Subscription(200, 220)])
        #expect(o2.subscriptions == [Subscription(200, 225)])
    }

    @Test func anEmptySourceDoesNotEndTheResultWhileAnotherNeverCompletes() {
        // RxSwift 6's testZip_NeverEmpty.
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let empty = scheduler.createHotObservable([.next(150, 1), Recorded<Event<Int>>.completed(210)])
        let res = scheduler.start { Observable.zip(never, empty) { $0 + $1 } }
        #expect(res.events == [])
        #expect(never.subscriptions == [Subscription(200, 1000)])
        #expect(empty.subscriptions == [Subscription(200, 210)])
    }

    @Test func queuedElementsArePairedInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let fast = scheduler.createHotObservable([.next(210, 1), .next(211, 2), .next(212, 3), .completed(300)])
        let slow = scheduler.createHotObservable([.next(250, "a"), .next(260, "b"), .completed(400)])
        let res = scheduler.start { Observable.zip(fast, slow).map { "\($0.0)\($0.1)" } }
        #expect(res.events == [.next(250, "1a"), .next(260, "2b"), .completed(400)])
    }

    @Test func synchronousSourcesArePairedAndComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.zip(Observable.of(1, 2, 3), Observable.of(10, 20)) { $0 + $1 } }
        #expect(res.events == [.next(200, 11), .next(200, 22), .completed(200)])
    }
}

@Suite struct ZipCollectionTests {
    @Test func emptyCollectionCompletesAtOnce() {
        let res = TestScheduler(initialClock: 0).start { Observable<Int>.zip([Observable<Int>]()) }
        #expect(res.events == [.completed(200)])
    }

    @Test func symmetricSourcesArePairedAndCompleteWithTheLast() {
        // RxSwift 6's testZip_NAry_symmetric.
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.zip([e0, e1, e2]) }
        #expect(res.events == [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(420)])
        #expect(e0.subscriptions == [Subscription(200, 420)])
        #expect(e1.subscriptions == [Subscription(200, 410)])
        #expect(e2.subscriptions == [Subscription(200, 400)])
    }

    @Test func completesWhenAnElementCanNeverBePairedAsInRxSwift6() {
        // RxSwift 6's testZip_NAry_asymmetric: e0 and e2 are done and e0 has nothing queued,
        // so e1's element at 310 can never be paired.
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(270)])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 5), .next(290, 7), .next(310, 9), .completed(410),
        ])
        let e2 = scheduler.createHotObservable([
            .next(150, 1), .next(230, 3), .next(260, 6), .next(280, 8), .completed(300),
        ])
        let res = scheduler.start { Observable.zip([e0, e1, e2]) { $0 } }
        #expect(res.events == [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(310)])
        #expect(e0.subscriptions == [Subscription(200, 270)])
        #expect(e1.subscriptions == [Subscription(200, 310)])
        #expect(e2.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorEndsAtOnceAndDisposesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let e1 = scheduler.createHotObservable([.next(220, 2), .next(240, 5), .completed(410)])
        let res = scheduler.start { Observable.zip([e0, e1]) }
        #expect(res.events == [.next(220, [1, 2]), .error(250, TestError(1))])
        #expect(e0.subscriptions == [Subscription(200, 250)])
        #expect(e1.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlyDisposesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .completed(400)])
        let res = scheduler.start(disposed: 300) { Observable.zip([e0, e1]) }
        #expect(res.events == [.next(220, [1, 2])])
        #expect(e0.subscriptions == [Subscription(200, 300)])
        #expect(e1.subscriptions == [Subscription(200, 300)])
    }
}

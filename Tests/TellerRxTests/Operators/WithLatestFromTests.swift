import TellerRx
import TellerTesting
import Testing

@Suite struct WithLatestFromTests {
    @Test func neverSourcesSendNothingAndStaySubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let ys = scheduler.createHotObservable([Recorded<Event<String>>.next(150, "z")])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
        #expect(ys.subscriptions == [Subscription(200, 1000)])
    }

    @Test func combinesEachElementWithTheLatestOfTheSecondAndDropsEarlierOnes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(230, 2), .next(250, 3), .next(270, 4), .completed(300),
        ])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .next(245, "c"), .completed(260)])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        #expect(res.events == [.next(230, "2a"), .next(250, "3c"), .next(270, "4c"), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        // The second sequence is disposed when it completes; its latest element stays in use.
        #expect(ys.subscriptions == [Subscription(200, 260)])
    }

    @Test func withoutSelectorForwardsTheSecondsLatestElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .next(250, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b")])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        #expect(res.events == [.next(230, "a"), .next(250, "b"), .completed(300)])
        #expect(ys.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorFromTheFirstEndsAtOnceAndDisposesTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .error(240, TestError(1))])
        let ys = scheduler.createHotObservable([.next(220, "a")])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        #expect(res.events == [.next(230, "a"), .error(240, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(ys.subscriptions == [Subscription(200, 240)])
    }

    @Test func errorFromTheSecondEndsAtOnceAndDisposesTheFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .error(240, TestError(2))])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        #expect(res.events == [.next(230, "a"), .error(240, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(ys.subscriptions == [Subscription(200, 240)])
    }

    @Test func errorThrownByTheSelectorEndsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a")])
        let res = scheduler.start { xs.withLatestFrom(ys) { _, _ -> String in throw TestError(3) } }
        #expect(res.events == [.error(230, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposingEarlyDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .next(260, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a")])
        let res = scheduler.start(disposed: 250) { xs.withLatestFrom(ys) }
        #expect(res.events == [.next(230, "a")])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func theSecondIsSubscribedFirstSoItsSynchronousElementIsUsed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).withLatestFrom(Observable.just("a")) { "\($0)\($1)" } }
        #expect(res.events == [.next(200, "1a"), .next(200, "2a"), .completed(200)])
    }
}

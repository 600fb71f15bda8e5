import TellerRx
import TellerTesting
import Testing

@Suite struct StartWithTests {
    @Test func neverSourceSendsOnlyThePrefixAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.startWith(0) }
        #expect(res.events == [.next(200, 0)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceSendsThePrefixThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.startWith(7, 8) }
        #expect(res.events == [.next(200, 7), .next(200, 8), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sendsThePrefixInOrderThenTheSourceElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let res = scheduler.start { xs.startWith(-1, 0) }
        #expect(res.events == [.next(200, -1), .next(200, 0), .next(220, 2), .next(230, 3), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func chainedPrefixesComeOutermostFirst() {
        let events = synchronousEvents(Observable.of(3).startWith(2).startWith(1))
        #expect(events == [.next(1), .next(2), .next(3), .completed])
    }

    @Test func forwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .error(250, TestError(1))])
        let res = scheduler.start { xs.startWith(0) }
        #expect(res.events == [.next(200, 0), .next(220, 2), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.startWith(0) }
        #expect(res.events == [.next(200, 0), .next(220, 2)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func prefixCanSatisfyATakeWithoutTheSourceSendingAnything() {
        let events = synchronousEvents(Observable<Int>.never().startWith(1, 2).take(2))
        #expect(events == [.next(1), .next(2), .completed])
    }
}

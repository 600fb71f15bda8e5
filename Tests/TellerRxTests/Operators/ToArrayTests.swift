import TellerRx
import TellerTesting
import Testing

@Suite struct ToArrayTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1), .next(210, 2)]))
        let res = scheduler.start { xs.toArray() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceSendsAnEmptyArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.toArray() }
        #expect(res.events == [.next(250, []), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sendsAllElementsAsOneArrayAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.toArray() }
        #expect(res.events == [.next(250, [2, 3]), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func forwardsSourceErrorWithoutTheArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TestError(1))])
        let res = scheduler.start { xs.toArray() }
        #expect(res.events == [.error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlySendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.toArray() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func eachSubscriptionCollectsItsOwnArray() {
        let array = Observable.of(1, 2).toArray().asObservable()
        #expect(synchronousEvents(array) == [.next([1, 2]), .completed])
        #expect(synchronousEvents(array) == [.next([1, 2]), .completed])
    }
}

import TellerRx
import TellerTesting
import Testing

@Suite struct SkipTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.skip(2) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.skip(2) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func dropsTheFirstCountElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
        let res = scheduler.start { xs.skip(2) }
        #expect(res.events == [.next(230, 4), .next(240, 5), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test(arguments: [-1, 0])
    func zeroOrNegativeCountDropsNothing(count: Int) {
        let events = synchronousEvents(Observable.of(1, 2).skip(count))
        #expect(events == [.next(1), .next(2), .completed])
    }

    @Test func countBeyondTheSourceDropsEverything() {
        let events = synchronousEvents(Observable.of(1, 2).skip(5))
        #expect(events == [.completed])
    }

    @Test func forwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .error(250, TestError(1))])
        let res = scheduler.start { xs.skip(1) }
        #expect(res.events == [.next(220, 3), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.skip(1) }
        #expect(res.events == [.next(220, 2)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }
}

import TellerRx
import TellerTesting
import Testing

@Suite struct MaterializeTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceSendsCompletedEventThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [.next(250, Event<Int>.completed), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func wrapsEveryElementAndTheCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.materialize() }
        #expect(
            res.events == [
                .next(210, Event.next(2)), .next(220, Event.next(3)), .next(250, Event<Int>.completed), .completed(250),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sourceErrorBecomesAnElementAndTheResultCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TestError(1))])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [.next(210, Event.next(2)), .next(250, Event<Int>.error(TestError(1))), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.materialize() }
        #expect(res.events == [.next(210, Event.next(1))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func dematerializeRestoresTheOriginalSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(250, TestError(4))])
        let res = scheduler.start { xs.materialize().dematerialize() }
        #expect(res.events == [.next(210, 1), .next(220, 2), .error(250, TestError(4))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}

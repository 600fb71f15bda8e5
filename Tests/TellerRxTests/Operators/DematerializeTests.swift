import TellerRx
import TellerTesting
import Testing

@Suite struct DematerializeTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Event<Int>>>]([.next(150, .next(1))]))
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, Event.next(1)), .completed(250)])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func unwrapsElementEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, Event.next(1)), .next(210, Event.next(2)), .next(220, Event.next(3)), .completed(250),
        ])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func completedElementEndsTheSequenceAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event.next(2)), .next(220, Event<Int>.completed), .next(230, Event.next(3)), .completed(250),
        ])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.next(210, 2), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func errorElementEndsTheSequenceWithThatError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event.next(2)), .next(220, Event<Int>.error(TestError(5))), .next(230, Event.next(3)),
        ])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.next(210, 2), .error(220, TestError(5))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func forwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event.next(2)), .error(250, TestError(1))])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.next(210, 2), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event.next(1)), .next(240, Event.next(2))])
        let res = scheduler.start(disposed: 230) { xs.dematerialize() }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func acceptsAnyEventConvertibleElement() {
        struct Wrapped: EventConvertible, Sendable {
            let event: Event<Int>
        }
        let events = synchronousEvents(
            Observable.of(Wrapped(event: .next(1)), Wrapped(event: .completed), Wrapped(event: .next(2)))
                .dematerialize()
        )
        #expect(events == [.next(1), .completed])
    }
}

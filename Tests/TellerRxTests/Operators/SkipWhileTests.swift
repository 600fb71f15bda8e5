@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct SkipWhileTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.skip(while: { $0 < 10 }) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.skip(while: { $0 < 10 }) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sendsEverythingFromTheFirstFailingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 13), .next(230, 4), .next(240, 15), .completed(250),
        ])
        let res = scheduler.start { xs.skip(while: { $0 < 10 }) }
        #expect(res.events == [.next(220, 13), .next(230, 4), .next(240, 15), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func predicateIsNotCalledAfterItFirstFailed() {
        let calls = Locked(0)
        let events = synchronousEvents(
            Observable.of(1, 20, 2, 3).skip(while: { value in
                calls.increment()
                return value < 10
            })
        )
        #expect(events == [.next(20), .next(2), .next(3), .completed])
        #expect(calls.value == 2)
    }

    @Test func forwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 13), .error(250, TestError(1))])
        let res = scheduler.start { xs.skip(while: { $0 < 10 }) }
        #expect(res.events == [.next(220, 13), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func errorThrownByPredicateIsForwardedAndSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 13), .completed(250)])
        let res = scheduler.start {
            xs.skip(while: { value in
                if value == 3 { throw TestError(3) }
                return true
            })
        }
        #expect(res.events == [.error(220, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 11), .next(240, 12), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.skip(while: { $0 < 10 }) }
        #expect(res.events == [.next(210, 11)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }
}

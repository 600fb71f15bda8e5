import TellerRx
import TellerTesting
import Testing

@Suite struct ScanTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.scan(0) { $0 + $1 } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletesWithoutSendingTheSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.scan(42) { $0 + $1 } }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sendsEveryIntermediateAccumulation() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(250),
        ])
        let res = scheduler.start { xs.scan(10) { $0 + $1 } }
        #expect(res.events == [.next(210, 12), .next(220, 15), .next(230, 19), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func intoVariantMutatesTheAccumulationInPlace() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let res = scheduler.start { xs.scan(into: [Int]()) { $0.append($1) } }
        #expect(res.events == [.next(210, [1]), .next(220, [1, 2]), .next(230, [1, 2, 3]), .completed(250)])
    }

    @Test func forwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TestError(1))])
        let res = scheduler.start { xs.scan(0) { $0 + $1 } }
        #expect(res.events == [.next(210, 2), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func errorThrownByAccumulatorIsForwardedAndSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        let res = scheduler.start {
            xs.scan(0) { accumulation, value in
                if value == 3 { throw TestError(7) }
                return accumulation + value
            }
        }
        #expect(res.events == [.next(210, 2), .error(220, TestError(7))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func errorThrownByInPlaceAccumulatorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start {
            xs.scan(into: 0) { accumulation, value in
                if value == 3 { throw TestError(8) }
                accumulation += value
            }
        }
        #expect(res.events == [.next(210, 2), .error(220, TestError(8))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.scan(0) { $0 + $1 } }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func eachSubscriptionStartsFromTheSeed() {
        let scan = Observable.of(1, 2, 3).scan(0) { $0 + $1 }
        #expect(synchronousEvents(scan) == [.next(1), .next(3), .next(6), .completed])
        #expect(synchronousEvents(scan) == [.next(1), .next(3), .next(6), .completed])
    }
}

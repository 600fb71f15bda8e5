@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct CompactMapTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.compactMap { $0 } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.compactMap { $0 } }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func sendsOnlyTheNonNilResults() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(300),
        ])
        let res = scheduler.start { xs.compactMap { $0 % 2 == 0 ? $0 * 10 : nil } }
        #expect(res.events == [.next(210, 20), .next(230, 40), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func forwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .error(300, TestError(1))])
        let res = scheduler.start { xs.compactMap { $0 == 3 ? nil : "\($0)" } }
        #expect(res.events == [.next(210, "2"), .error(300, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorThrownByTransformIsForwardedAndSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.compactMap { value -> Int? in
                if value == 2 { throw TestError(2) }
                return value
            }
        }
        #expect(res.events == [.next(210, 1), .error(220, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(290, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.compactMap { $0 } }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func throwingTransformStopsASynchronousSourceAndIsNotCalledAgain() {
        let calls = Locked(0)
        let events = synchronousEvents(
            Observable.repeatElement(1).compactMap { value -> Int? in
                calls.increment()
                if calls.value == 3 { throw TestError(3) }
                return value
            }
        )
        #expect(events == [.next(1), .next(1), .error(TestError(3))])
        #expect(calls.value == 3)
    }
}

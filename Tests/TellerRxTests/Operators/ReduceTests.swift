@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct ReduceTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.reduce(0) { $0 + $1 } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceSendsTheSeedAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.reduce(42) { $0 + $1 } }
        #expect(res.events == [.next(250, 42), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sendsOnlyTheFinalAccumulationAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 0), .next(220, 1), .next(230, 2), .next(240, 3), .completed(250),
        ])
        let res = scheduler.start { xs.reduce(42) { $0 + $1 } }
        #expect(res.events == [.next(250, 48), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func mapResultTransformsTheFinalAccumulation() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.reduce(0, accumulator: { $0 + $1 }, mapResult: { "sum \($0)" }) }
        #expect(res.events == [.next(250, "sum 3"), .completed(250)])
    }

    @Test func forwardsSourceErrorWithoutAResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let res = scheduler.start { xs.reduce(0) { $0 + $1 } }
        #expect(res.events == [.error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func errorThrownByAccumulatorIsForwardedAndSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let res = scheduler.start {
            xs.reduce(0) { accumulation, value in
                if value == 2 { throw TestError(2) }
                return accumulation + value
            }
        }
        #expect(res.events == [.error(220, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func errorThrownByMapResultIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start {
            xs.reduce(0, accumulator: { $0 + $1 }, mapResult: { _ -> Int in throw TestError(3) })
        }
        #expect(res.events == [.error(250, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlySendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.reduce(0) { $0 + $1 } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func accumulatorIsNotCalledAfterItThrew() {
        let calls = Locked(0)
        let events = synchronousEvents(
            Observable.of(1, 2, 3, 4).reduce(0) { accumulation, value in
                calls.increment()
                if value == 2 { throw TestError(2) }
                return accumulation + value
            }
        )
        #expect(events == [.error(TestError(2))])
        #expect(calls.value == 2)
    }
}

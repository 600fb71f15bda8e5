@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// `Observable.single()` and `single(_:)`: RxSwift's `SingleAsync` operator (an `Observable`,
/// not the `Single` trait).
@Suite struct SingleOperatorTests {
    @Test func neverSourceSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.single() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceFailsWithNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.single() }
        #expect(res.events == [.error(250, RxError.noElements)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func oneElementIsSentAtOnceThenCompletesWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
        let res = scheduler.start { xs.single() }
        #expect(res.events == [.next(210, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func secondElementFailsWithMoreThanOneElementAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        let res = scheduler.start { xs.single() }
        #expect(res.events == [.next(210, 2), .error(220, RxError.moreThanOneElement)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func forwardsTheSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .error(210, TestError(1))])
        let res = scheduler.start { xs.single() }
        #expect(res.events == [.error(210, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func disposingEarlySendsNothingMore() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.single() }
        #expect(res.events == [.next(210, 2)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func predicateKeepsOnlyMatchingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 5), .completed(250),
        ])
        let res = scheduler.start { xs.single { $0.isMultiple(of: 2) } }
        #expect(res.events == [.next(220, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func predicateWithTwoMatchesFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        let res = scheduler.start { xs.single { $0.isMultiple(of: 2) } }
        #expect(res.events == [.next(210, 2), .error(230, RxError.moreThanOneElement)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func predicateWithoutMatchFailsWithNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.single { $0.isMultiple(of: 2) } }
        #expect(res.events == [.error(250, RxError.noElements)])
    }

    @Test func throwingPredicateFailsAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start {
            xs.single { element in
                if element == 2 { throw TestError(2) }
                return false
            }
        }
        #expect(res.events == [.error(220, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func stopsASynchronousSourceAtTheSecondElement() {
        let calls = Locked(0)
        let events = synchronousEvents(
            Observable.repeatElement(1).single { _ in
                calls.increment()
                return true
            }
        )
        #expect(events == [.next(1), .error(RxError.moreThanOneElement)])
        #expect(calls.value == 2)
    }
}

@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct TakeWithPredicateTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.take(while: { $0 < 10 }) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.take(while: { $0 < 10 }) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func whileCompletesAtTheFirstFailingElementExclusively() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 14), .next(240, 5), .completed(250),
        ])
        let res = scheduler.start { xs.take(while: { $0 < 10 }) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func whileInclusiveAlsoSendsTheFailingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 14), .next(240, 5), .completed(250)])
        let res = scheduler.start { xs.take(while: { $0 < 10 }, behavior: .inclusive) }
        #expect(res.events == [.next(210, 2), .next(230, 14), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func untilCompletesAtTheFirstMatchingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        let res = scheduler.start { xs.take(until: { $0 == 3 }) }
        #expect(res.events == [.next(210, 2), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func untilInclusiveAlsoSendsTheMatchingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        let res = scheduler.start { xs.take(until: { $0 == 3 }, behavior: .inclusive) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func firstElementFailingCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 20), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.take(while: { $0 < 10 }) }
        #expect(res.events == [.completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func forwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TestError(1))])
        let res = scheduler.start { xs.take(while: { $0 < 10 }) }
        #expect(res.events == [.next(210, 2), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func errorThrownByPredicateIsForwardedAndSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start {
            xs.take(while: { value in
                if value == 3 { throw TestError(3) }
                return true
            })
        }
        #expect(res.events == [.next(210, 2), .error(220, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.take(while: { _ in true }) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func predicateIsNotCalledAfterTheSequenceStopped() {
        let calls = Locked(0)
        let events = synchronousEvents(
            Observable.repeatElement(1).scan(0) { $0 + $1 }
                .take(while: { value in
                    calls.increment()
                    return value < 3
                })
        )
        #expect(events == [.next(1), .next(2), .completed])
        #expect(calls.value == 3)
    }

    @Test func elementSentReentrantlyAfterTheStopIsDropped() {
        let source = ManualSource<Int>()
        let events = Locked<[Event<Int>]>([])
        let subscription = source.observable.take(until: { $0 == 2 }, behavior: .inclusive)
            .subscribe { event in
                events.withLock { $0.append(event) }
                if event == .next(2) { source.onNext(3) }
            }
        source.onNext(1)
        source.onNext(2)
        #expect(events.value == [.next(1), .next(2), .completed])
        subscription.dispose()
    }
}

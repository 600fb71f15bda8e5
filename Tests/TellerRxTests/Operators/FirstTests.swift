@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct FirstTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.first() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceSendsNilThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.first() }
        #expect(res.events == [.next(250, nil), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sendsTheFirstElementThenCompletesAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.first() }
        #expect(res.events == [.next(210, 2), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func forwardsSourceErrorBeforeTheFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .error(220, TestError(1))])
        let res = scheduler.start { xs.first() }
        #expect(res.events == [.error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlySendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.first() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func stopsAnInfiniteSynchronousSource() {
        #expect(synchronousEvents(Observable.repeatElement(4).first().asObservable()) == [.next(4), .completed])
    }

    @Test func elementSentReentrantlyIsDropped() {
        let source = ManualSource<Int>()
        let events = Locked<[Event<Int?>]>([])
        let subscription = source.observable.first().asObservable()
            .subscribe { event in
                events.withLock { $0.append(event) }
                if event == .next(1) { source.onNext(2) }
            }
        source.onNext(1)
        #expect(events.value == [.next(1), .completed])
        subscription.dispose()
    }
}

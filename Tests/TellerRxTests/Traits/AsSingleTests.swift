import TellerRx
import TellerTesting
import Testing

@Suite struct AsSingleTests {
    @Test func neverSourceNeverSucceeds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceFailsWithNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250), .error(260, TestError(1))])
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [.error(250, RxError.noElements)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func oneElementIsDeliveredWhenTheSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [.next(250, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func secondElementFailsAndDisposesTheSourceAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [.error(220, RxError.moreThanOneElement)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func secondElementUnsubscribesFromTheSourceBeforeItCompletes() {
        let subject = PublishSubject<Int>()
        let log = TraitEventLog()
        _ = subject.asSingle().subscribe { log.record($0) }
        subject.onNext(1)
        #expect(subject.hasObservers)
        subject.onNext(2)
        #expect(!subject.hasObservers)
        #expect(log.events == ["failure(\(RxError.moreThanOneElement))"])
    }

    @Test func errorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 2), .error(210, TestError(1))])
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [.error(210, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func disposingEarlyStopsTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(400)])
        let res = scheduler.start(disposed: 300) { xs.asSingle() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func asMaybeCompletesEmptyOnAnEmptySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.asMaybe() }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func asMaybeDeliversOneElementOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
        let res = scheduler.start { xs.asMaybe() }
        #expect(res.events == [.next(250, 2), .completed(250)])
    }

    @Test func asMaybeFailsOnTheSecondElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.asMaybe() }
        #expect(res.events == [.error(220, RxError.moreThanOneElement)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func asMaybeForwardsErrorAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.next(205, 2), .error(210, TestError(1))])
        let silent = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let failed = scheduler.start { failing.asMaybe() }
        #expect(failed.events == [.error(210, TestError(1))])
        #expect(failing.subscriptions == [Subscription(200, 210)])
        let res = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) { silent.asMaybe() }
        #expect(res.events == [])
        #expect(silent.subscriptions == [Subscription(1200, 1300)])
    }

    @Test func ignoreElementsThenAsCompletableKeepsTheEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.ignoreElements().asCompletable() }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func ignoreElementsThenAsCompletableForwardsErrorAndHonoursEarlyDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(2))])
        let silent = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(210, 1)]))
        let failed = scheduler.start { failing.ignoreElements().asCompletable() }
        #expect(failed.events == [.error(220, TestError(2))])
        #expect(failing.subscriptions == [Subscription(200, 220)])
        let res = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            silent.ignoreElements().asCompletable()
        }
        #expect(res.events == [])
        #expect(silent.subscriptions == [Subscription(1200, 1300)])
    }

    @Test func neverElementObservableBecomesACompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250, Never.self)])
        let res = scheduler.start { xs.asCompletable() }
        #expect(res.events == [.completed(250)])
    }
}

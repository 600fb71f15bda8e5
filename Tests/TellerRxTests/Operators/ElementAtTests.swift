@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct ElementAtTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.element(at: 2) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceFailsWithArgumentOutOfRange() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.element(at: 0) }
        #expect(res.events == [.error(250, RxError.argumentOutOfRange)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sendsTheElementAtIndexThenCompletesAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
        let res = scheduler.start { xs.element(at: 2) }
        #expect(res.events == [.next(230, 4), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func indexZeroSendsTheFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.element(at: 0) }
        #expect(res.events == [.next(210, 2), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func shorterSourceFailsWithArgumentOutOfRangeAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.element(at: 2) }
        #expect(res.events == [.error(250, RxError.argumentOutOfRange)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func negativeIndexFailsAtOnceWithoutSubscribing() {
        expectMisuse("element(at:) was called with a negative index (-1); it fails with argumentOutOfRange.") {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
            let res = scheduler.start { xs.element(at: -1) }
            #expect(res.events == [.error(200, RxError.argumentOutOfRange)])
            #expect(xs.subscriptions == [])
        }
    }

    @Test func forwardsSourceErrorBeforeTheIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError(1))])
        let res = scheduler.start { xs.element(at: 3) }
        #expect(res.events == [.error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlySendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.element(at: 1) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func completionSentReentrantlyAfterTheElementIsDropped() {
        let source = ManualSource<Int>()
        let events = Locked<[Event<Int>]>([])
        let subscription = source.observable.element(at: 1)
            .subscribe { event in
                events.withLock { $0.append(event) }
                if event == .next(2) { source.send(.completed) }
            }
        source.onNext(1)
        source.onNext(2)
        #expect(events.value == [.next(2), .completed])
        subscription.dispose()
    }
}

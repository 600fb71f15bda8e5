@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct TakeTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.take(3) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.take(3) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func completesAfterCountElementsAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
        let res = scheduler.start { xs.take(2) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func shorterSourceCompletesOnItsOwn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.take(5) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func zeroCompletesAtOnceWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
        let res = scheduler.start { xs.take(0) }
        #expect(res.events == [.completed(200)])
        #expect(xs.subscriptions == [])
    }

    @Test func negativeCountFailsWithArgumentOutOfRange() {
        expectMisuse("take(_:) was called with a negative count (-1); it fails with argumentOutOfRange.") {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
            let res = scheduler.start { xs.take(-1) }
            #expect(res.events == [.error(200, RxError.argumentOutOfRange)])
            #expect(xs.subscriptions == [])
        }
    }

    @Test func forwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TestError(1))])
        let res = scheduler.start { xs.take(3) }
        #expect(res.events == [.next(210, 2), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func errorAfterTheLastElementIsNotForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TestError(1))])
        let res = scheduler.start { xs.take(1) }
        #expect(res.events == [.next(210, 2), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.take(5) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func stopsAnInfiniteSynchronousSource() {
        let events = synchronousEvents(Observable.repeatElement(7).take(3))
        #expect(events == [.next(7), .next(7), .next(7), .completed])
    }

    @Test func stopsAnInfiniteSynchronousSourceThroughOtherOperators() {
        let events = synchronousEvents(Observable.repeatElement(1).map { $0 * 2 }.filter { $0 > 0 }.take(2))
        #expect(events == [.next(2), .next(2), .completed])
    }

    @Test func stopsAFiniteSynchronousSourceAfterTheLastElement() {
        let sent = Locked<[Int]>([])
        let events = synchronousEvents(
            Observable.of(1, 2, 3, 4).map { value in
                sent.append(value)
                return value
            }.take(2)
        )
        #expect(events == [.next(1), .next(2), .completed])
        #expect(sent.value == [1, 2])
    }

    @Test func elementSentReentrantlyFromDownstreamCountsTowardsTheLimit() {
        let source = ManualSource<Int>()
        let events = Locked<[Event<Int>]>([])
        let subscription = source.observable.take(2)
            .subscribe { event in
                events.withLock { $0.append(event) }
                if event == .next(1) { source.onNext(2) }
            }
        source.onNext(1)
        source.onNext(3)
        #expect(events.value == [.next(1), .next(2), .completed])
        #expect(source.disposeCount.value == 1)
        subscription.dispose()
    }
}

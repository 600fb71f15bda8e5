@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct TakeUntilTests {
    @Test func neverSourceAndNeverOtherSendNothingAndStaySubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let other = scheduler.createHotObservable([Recorded<Event<String>>]([.next(150, "x")]))
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
        #expect(other.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletesAndDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let other = scheduler.createHotObservable([Recorded<Event<String>>]([.next(300, "x")]))
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(200, 250)])
    }

    @Test func otherElementCompletesTheResultAndDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
        let other = scheduler.createHotObservable([.next(150, "a"), .next(225, "b"), .completed(230)])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(225)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func otherElementBeforeAnySourceElementCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(230, 2), .completed(240)])
        let other = scheduler.createHotObservable([.next(210, "a"), .completed(220)])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(other.subscriptions == [Subscription(200, 210)])
    }

    @Test func otherErrorEndsTheResultWithThatError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        let other = scheduler.createHotObservable([.next(150, "a"), .error(225, TestError(9), String.self)])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .error(225, TestError(9))])
        #expect(xs.subscriptions == [Subscription(200, 225)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func otherCompletingWithoutElementIsDisposedAndTheSourceContinues() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .next(240, 5), .completed(250)])
        let other = scheduler.createHotObservable([.next(150, "a"), .completed(225, String.self)])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 2), .next(230, 4), .next(240, 5), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func forwardsSourceErrorAndDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(225, TestError(1))])
        let other = scheduler.createHotObservable([Recorded<Event<String>>]([.next(240, "a")]))
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 2), .error(225, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 225)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func disposingEarlyDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let other = scheduler.createHotObservable([Recorded<Event<String>>]([.next(260, "a")]))
        let res = scheduler.start(disposed: 230) { xs.take(until: other) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(other.subscriptions == [Subscription(200, 230)])
    }

    @Test func otherThatFiresWhileSubscribingStopsASynchronousSource() {
        let sent = Locked(0)
        let source = Observable.of(1, 2, 3).map { value in
            sent.increment()
            return value
        }
        let events = synchronousEvents(source.take(until: Observable.just("stop")))
        #expect(events == [.completed])
        #expect(sent.value == 0)
    }

    @Test func otherFiringReentrantlyFromDownstreamCompletesAfterTheCurrentElement() {
        let source = ManualSource<Int>()
        let other = ManualSource<String>()
        let events = Locked<[Event<Int>]>([])
        let subscription = source.observable.take(until: other.observable)
            .subscribe { event in
                events.withLock { $0.append(event) }
                if event == .next(2) { other.onNext("stop") }
            }
        source.onNext(1)
        source.onNext(2)
        source.onNext(3)
        #expect(events.value == [.next(1), .next(2), .completed])
        #expect(source.disposeCount.value == 1)
        #expect(other.disposeCount.value == 1)
        subscription.dispose()
    }
}

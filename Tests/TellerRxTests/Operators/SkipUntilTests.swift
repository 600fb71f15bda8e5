import TellerRx
import TellerTesting
import Testing

@Suite struct SkipUntilTests {
    @Test func neverSourceAndNeverOtherSendNothingAndStaySubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let other = scheduler.createHotObservable([Recorded<Event<String>>]([.next(150, "x")]))
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
        #expect(other.subscriptions == [Subscription(200, 1000)])
    }

    @Test func sendsTheElementsAfterOtherFiredAndDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
        let other = scheduler.createHotObservable([.next(150, "a"), .next(225, "b"), .completed(230)])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [.next(230, 4), .next(240, 5), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func sourceCompletingBeforeOtherFiredEndsSilentlyAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let other = scheduler.createHotObservable([Recorded<Event<String>>]([.next(150, "a")]))
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(200, 250)])
    }

    @Test func otherCompletingWithoutElementDropsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(250)])
        let other = scheduler.createHotObservable([.next(150, "a"), .completed(225, String.self)])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func otherErrorEndsTheResultWithThatError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(250)])
        let other = scheduler.createHotObservable([.next(150, "a"), .error(225, TestError(9), String.self)])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [.error(225, TestError(9))])
        #expect(xs.subscriptions == [Subscription(200, 225)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func forwardsSourceErrorBeforeOtherFired() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError(1))])
        let other = scheduler.createHotObservable([.next(230, "a"), .completed(250)])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [.error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(other.subscriptions == [Subscription(200, 220)])
    }

    @Test func forwardsSourceErrorAfterOtherFired() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 3), .error(240, TestError(1))])
        let other = scheduler.createHotObservable([.next(220, "a")])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [.next(230, 3), .error(240, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(other.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlyDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let other = scheduler.createHotObservable([.next(220, "a")])
        let res = scheduler.start(disposed: 250) { xs.skip(until: other) }
        #expect(res.events == [.next(240, 2)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(200, 220)])
    }

    @Test func otherFiringWhileSubscribingOpensTheGateBeforeASynchronousSourceRuns() {
        // Both subscriptions are made before the trampolined `of` loop runs, as in RxSwift.
        let events = synchronousEvents(Observable.of(1, 2).skip(until: Observable.just("go")))
        #expect(events == [.next(1), .next(2), .completed])
    }
}

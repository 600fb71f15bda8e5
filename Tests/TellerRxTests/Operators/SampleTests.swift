import TellerRx
import TellerTesting
import Testing

@Suite struct SampleTests {
    private static let sourceEvents: [Recorded<Event<Int>>] = [
        .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .completed(400),
    ]
    private static let samplerEvents: [Recorded<Event<String>>] = [
        .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
    ]

    @Test func sendsTheLatestNewElementOnEachTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.sourceEvents)
        let ys = scheduler.createHotObservable(Self.samplerEvents)
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(320, 6), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(ys.subscriptions == [Subscription(200, 500)])
    }

    @Test func samplerCompletionIsATickThatSendsWhatIsLeft() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .next(360, 7),
            .completed(400),
        ])
        let ys = scheduler.createHotObservable(Self.samplerEvents)
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(320, 6), .next(500, 7), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(ys.subscriptions == [Subscription(200, 500)])
    }

    @Test func tickAfterTheSourceCompletedSendsTheLastElementAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .completed(300),
        ])
        let ys = scheduler.createHotObservable(Self.samplerEvents)
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(320, 4), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 320)])
    }

    @Test func defaultValueIsSentOnTicksWithoutANewElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.sourceEvents)
        let ys = scheduler.createHotObservable(Self.samplerEvents)
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        #expect(
            res.events == [
                .next(210, 0), .next(250, 3), .next(260, 0), .next(320, 6), .next(500, 0), .completed(500),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(ys.subscriptions == [Subscription(200, 500)])
    }

    @Test func sourceErrorIsSentAtOnceAndEndsBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
            .error(320, TestError(1)),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(300, "baz"),
            .completed(400),
        ])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(300, 5), .error(320, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 320)])
        #expect(ys.subscriptions == [Subscription(200, 320)])
    }

    @Test func samplerErrorIsSentAtOnceAndEndsBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.sourceEvents)
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .error(320, TestError(2)),
        ])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .error(320, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 320)])
        #expect(ys.subscriptions == [Subscription(200, 320)])
    }

    @Test func neverSamplerSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.sourceEvents)
        let ys = scheduler.createHotObservable([Recorded<Event<String>>]([]))
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(ys.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletesOnTheNextTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.completed(230)]))
        let ys = scheduler.createHotObservable(Self.samplerEvents)
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.completed(250)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func samplerCompletingFirstLeavesTheResultOpenUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .next(600, 3), .completed(700)])
        let ys = scheduler.createHotObservable([.next(250, "tick"), .completed(300)])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 2)])
        #expect(xs.subscriptions == [Subscription(200, 700)])
    }

    @Test func disposingEarlyEndsBothSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.sourceEvents)
        let ys = scheduler.createHotObservable(Self.samplerEvents)
        let res = scheduler.start(disposed: 300) { xs.sample(ys) }
        #expect(res.events == [.next(250, 3)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 300)])
    }
}

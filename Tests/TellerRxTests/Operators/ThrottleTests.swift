import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct ThrottleTests {
    private static let burst: [Recorded<Event<Int>>] = [
        .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .next(410, 6), .next(450, 7),
    ]

    // MARK: latest: false

    @Test func notLatestSendsTheFirstElementOfEachWindowAndDropsTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.burst + [.completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func notLatestNeverSourceSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 0)]))
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func notLatestEmptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func notLatestErrorIsSentAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .error(410, TestError(1)),
            .next(450, 7), .completed(500),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .error(410, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 410)])
    }

    @Test func notLatestWithoutEndKeepsThrottling() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.burst)
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    // MARK: latest: true

    @Test func latestSendsTheLatestElementWhenTheWindowEndsThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.burst + [.completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
        // The source is let go when it completes; only the kept element waits.
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func latestCompletionAfterTheWindowIsSentAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.burst + [.completed(900)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(900)])
        #expect(xs.subscriptions == [Subscription(200, 900)])
    }

    @Test func latestNeverSourceSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 0)]))
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func latestEmptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func latestErrorDropsTheKeptElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .error(410, TestError(1)),
            .next(450, 7), .completed(500),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .error(410, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 410)])
    }

    @Test func latestWithoutEndKeepsThrottling() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.burst)
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func latestKeptElementIsReplacedByANewerOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4)])
        let res = scheduler.start { xs.throttle(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(260, 4)])
    }

    @Test func latestElementsFurtherApartThanTheWindowAllPassAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2), .next(400, 3), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(300, 2), .next(400, 3), .completed(500)])
    }

    @Test func disposingEarlyCancelsTheKeptElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.burst + [.completed(500)])
        let res = scheduler.start(disposed: 400) { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test func throttleOnARealQueueWithoutLatestSendsOnlyTheFirstOfABurst() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "throttle")
        let values = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable.from(Array(0..<100))
            .throttle(.seconds(60), latest: false, scheduler: scheduler)
            .subscribe(onNext: { values.append($0) }, onCompleted: { done.signal() })
        #expect(done.waitOrTimeOut())
        #expect(values.value == [0])
        subscription.dispose()
    }

    @Test func throttleOnARealQueueWithLatestSendsTheLastOfABurstOnItsQueue() {
        let marker = QueueMarker(label: "throttle.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "throttle")
        let values = Locked<[Int]>([])
        let completedOnQueue = Locked(false)
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable.from(Array(0..<100))
            .throttle(.milliseconds(200), scheduler: scheduler)
            .subscribe(
                onNext: { values.append($0) },
                onCompleted: {
                    completedOnQueue.withLock { $0 = marker.isCurrent }
                    done.signal()
                }
            )
        #expect(done.waitOrTimeOut())
        #expect(values.value.first == 0)
        #expect(values.value.last == 99)
        #expect(completedOnQueue.value)
        subscription.dispose()
    }
}

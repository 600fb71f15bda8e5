import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct DelayTests {
    private static let source: [Recorded<Event<Int>>] = [
        .next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .completed(550),
    ]

    @Test(arguments: [(100, 350), (50, 300), (150, 400), (42, 292)])
    func shiftsElementsAndCompletionByTheDueTime(delay: Int, firstAt: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source)
        let res = scheduler.start { xs.delay(.seconds(delay), scheduler: scheduler) }
        #expect(
            res.events == [
                .next(firstAt, 2), .next(firstAt + 100, 3), .next(firstAt + 200, 4), .completed(firstAt + 300),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletesAfterTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        #expect(res.events == [.completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func errorIsNotDelayed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .error(250, TestError(1))])
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        #expect(res.events == [.error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func errorAfterAllElementsWereSentFollowsThem() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .error(550, TestError(1)),
        ])
        let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(300, 2), .next(400, 3), .next(500, 4), .error(550, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func errorDropsTheElementsStillWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .error(550, TestError(1)),
        ])
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        #expect(res.events == [.next(400, 2), .next(500, 3), .error(550, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func disposingEarlyDropsTheElementsStillWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source)
        let res = scheduler.start(disposed: 400) { xs.delay(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(350, 2)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test func elementsSentInOneTickAreDelayedTogetherInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(230, 3), .completed(230)])
        let res = scheduler.start { xs.delay(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(230, 1), .next(230, 2), .next(250, 3), .completed(250)])
    }

    @Test func elementsCloserThanTheDueTimeKeepTheirSpacing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(213, 2), .next(214, 3), .completed(220)])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(310, 1), .next(313, 2), .next(314, 3), .completed(320)])
    }

    @Test func coldSourceIsDelayedFromItsSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.delay(.seconds(5), scheduler: scheduler) }
        #expect(res.events == [.next(215, 1), .completed(225)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func delayOnARealQueueKeepsOrderAndCompletes() {
        let marker = QueueMarker(label: "delay.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "delay")
        let subject = PublishSubject<Int>()
        let values = Locked<[Int]>([])
        let offQueue = Locked(0)
        let done = DispatchSemaphore(value: 0)
        let subscription = subject.delay(.milliseconds(5), scheduler: scheduler).subscribe(
            onNext: { value in
                if !marker.isCurrent { offQueue.increment() }
                values.append(value)
            },
            onCompleted: { done.signal() }
        )
        DispatchQueue.global().async {
            for value in 0..<100 { subject.onNext(value) }
            subject.onCompleted()
        }
        #expect(done.waitOrTimeOut())
        #expect(values.value == Array(0..<100))
        #expect(offQueue.value == 0)
        subscription.dispose()
    }

    @Test func errorWhileTheDrainIsSendingFollowsTheElementBeingSent() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "delay.error")
        let subject = PublishSubject<Int>()
        let events = Locked<[String]>([])
        let inFirstElement = DispatchSemaphore(value: 0)
        let errorSent = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let subscription = subject.delay(.milliseconds(1), scheduler: scheduler).subscribe(
            onNext: { value in
                inFirstElement.signal()
                _ = errorSent.waitOrTimeOut()
                events.withLock { $0.append("next(\(value))") }
            },
            onError: { _ in
                events.withLock { $0.append("error") }
                done.signal()
            }
        )
        subject.onNext(1)
        #expect(inFirstElement.waitOrTimeOut())
        subject.onError(TestError(1))
        errorSent.signal()
        #expect(done.waitOrTimeOut())
        #expect(events.value == ["next(1)", "error"])
        subscription.dispose()
    }
}

import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct TimeoutTests {
    @Test func neverSourceTimesOutAfterTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.error(300, RxError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func emptySourceCompletesBeforeTheTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func eachElementRestartsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(250, 1), .next(340, 2), .next(430, 3), .next(520, 4), .completed(600),
        ])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(250, 1), .next(340, 2), .next(430, 3), .next(520, 4), .completed(600)])
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test func gapLongerThanTheDueTimeAfterAnElementTimesOut() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .next(400, 2), .completed(500)])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(250, 1), .error(350, RxError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 350)])
    }

    @Test func sourceErrorPassesThroughBeforeTheTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .error(300, TestError(1))])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(250, 1), .error(300, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func elementAtTheDueTimeWinsWhenItWasScheduledBeforeTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        // The hot event at 300 was scheduled before the timer, so it runs first and wins.
        let xs = scheduler.createHotObservable([.next(300, 1), .next(450, 2)])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(300, 1), .error(400, RxError.timeout)])
    }

    @Test func disposingEarlyCancelsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1)])
        let res = scheduler.start(disposed: 300) { xs.timeout(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(250, 1)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func timeoutErrorTellsWhatHappened() {
        #expect(RxError.timeout.debugDescription.contains("timed out"))
    }

    // MARK: timeout(_:other:scheduler:)

    @Test func switchesToTheOtherSequenceOnTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .next(400, 2), .completed(500)])
        let ys = scheduler.createColdObservable([.next(10, 42), .completed(20)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        #expect(res.events == [.next(250, 1), .next(360, 42), .completed(370)])
        #expect(xs.subscriptions == [Subscription(200, 350)])
        #expect(ys.subscriptions == [Subscription(350, 370)])
    }

    @Test func otherSequenceIsNeverSubscribedWithoutATimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .next(300, 2), .completed(350)])
        let ys = scheduler.createColdObservable([.next(10, 42), .completed(20)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        #expect(res.events == [.next(250, 1), .next(300, 2), .completed(350)])
        #expect(ys.subscriptions == [])
    }

    @Test func otherSequenceErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([]))
        let ys = scheduler.createColdObservable([Recorded<Event<Int>>]([.error(5, TestError(2))]))
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        #expect(res.events == [.error(305, TestError(2))])
        #expect(ys.subscriptions == [Subscription(300, 305)])
    }

    @Test func disposingAfterTheSwitchDisposesTheOtherSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([]))
        let ys = scheduler.createColdObservable([.next(10, 42), .next(500, 43)])
        let res = scheduler.start(disposed: 400) { xs.timeout(.seconds(50), other: ys, scheduler: scheduler) }
        #expect(res.events == [.next(260, 42)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(250, 400)])
    }

    @Test func sourceEventsAfterTheSwitchAreIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([Recorded<Event<Int>>]([.next(100, 42)]))
        let observer = scheduler.createObserver(Int.self)
        let source = Locked<(any ObserverType<Int>)?>(nil)
        scheduler.scheduleAt(200) {
            // Keep a handle on the sink's observer so the test can push after the switch.
            _ = Observable<Int>.create { observer in
                source.withLock { $0 = observer }
                return Disposables.create()
            }
            .timeout(.seconds(50), other: ys, scheduler: scheduler)
            .subscribe(observer)
        }
        scheduler.scheduleAt(300) { source.value?.onNext(1) }
        scheduler.start()
        #expect(observer.events == [.next(350, 42)])
    }

    @Test func timeoutOnARealQueueFailsWithRxErrorTimeout() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "timeout")
        let failure = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable<Int>.never()
            .timeout(.milliseconds(5), scheduler: scheduler)
            .subscribe(onError: { error in
                failure.withLock { $0 = error }
                done.signal()
            })
        #expect(done.waitOrTimeOut())
        #expect((failure.value as? RxError) == .timeout)
        subscription.dispose()
    }
}

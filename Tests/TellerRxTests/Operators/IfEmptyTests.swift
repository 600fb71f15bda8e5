@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct IfEmptyTests {
    // MARK: ifEmpty(default:)

    @Test func defaultIsSentThenCompletionWhenTheSourceIsEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.ifEmpty(default: 42) }
        #expect(res.events == [.next(250, 42), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func elementsPassThroughAndTheDefaultIsNotSent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.ifEmpty(default: 42) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func anErrorIsNotReplacedByTheDefault() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(250, TestError(1))])
        let res = scheduler.start { xs.ifEmpty(default: 42) }
        #expect(res.events == [.error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func defaultNeverSendsNothingUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { xs.ifEmpty(default: 42) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func defaultDisposedEarlySendsNothingMore() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let res = scheduler.start(disposed: 300) { xs.ifEmpty(default: 42) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func defaultWorksForASynchronousEmptySource() {
        #expect(synchronousEvents(Observable<Int>.empty().ifEmpty(default: 7)) == [.next(7), .completed])
    }

    // MARK: ifEmpty(switchTo:)

    @Test func switchesToOtherWhenTheSourceCompletesEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let ys = scheduler.createColdObservable([.next(10, 0), .next(20, 1), .completed(50)])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        #expect(res.events == [.next(220, 0), .next(230, 1), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(ys.subscriptions == [Subscription(210, 260)])
    }

    @Test func otherIsNeverSubscribedWhenTheSourceHasAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .completed(210)])
        let ys = scheduler.createColdObservable([.next(10, 0), .completed(50)])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        #expect(res.events == [.next(205, 1), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(ys.subscriptions == [])
    }

    @Test func sourceErrorIsForwardedAndOtherIsNeverSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(210, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 0), .completed(50)])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        #expect(res.events == [.error(210, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(ys.subscriptions == [])
    }

    @Test func otherErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let ys = scheduler.createColdObservable([.next(10, 0), .error(50, TestError(2))])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        #expect(res.events == [.next(220, 0), .error(260, TestError(2))])
        #expect(ys.subscriptions == [Subscription(210, 260)])
    }

    @Test func switchNeverStaysSubscribedUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 0)])
        let ys = scheduler.createColdObservable([.next(10, 0), .completed(50)])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
        #expect(ys.subscriptions == [])
    }

    @Test func disposingDuringOtherDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let ys = scheduler.createColdObservable([.next(10, 0), .next(200, 1), .completed(300)])
        let res = scheduler.start(disposed: 300) { xs.ifEmpty(switchTo: ys.asObservable()) }
        #expect(res.events == [.next(220, 0)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(ys.subscriptions == [Subscription(210, 300)])
    }

    @Test func synchronousEmptySourceSwitchesAndFreesEverything() {
        var events: [Event<Int>] = []
        let leaked = resourcesLeaked {
            events = synchronousEvents(Observable<Int>.empty().ifEmpty(switchTo: .of(1, 2)))
        }
        #expect(events == [.next(1), .next(2), .completed])
        #expect(leaked == 0)
    }

    @Test func chainIsFreedWhenOtherCompletesWhileStillHeld() {
        let released = tokenIsReleased { token in
            Observable<Int>.empty()
                .ifEmpty(
                    switchTo: Observable.just(1).map { _ in
                        _ = token
                        return 2
                    }
                )
                .subscribe()
        }
        #expect(released)
    }

    @Test func otherCanBeSubscribedFromAnotherThread() {
        let source = ManualSource<Int>()
        let recorder = RecordingObserver<Int>()
        let subscription = source.observable.ifEmpty(switchTo: .just(9)).subscribe(recorder)
        #expect(runOnOtherThread { source.send(.completed) })
        #expect(recorder.events == [.next(9), .completed])
        #expect(source.disposeCount.value == 1)
        subscription.dispose()
    }
}

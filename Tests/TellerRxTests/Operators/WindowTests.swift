import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct WindowTests {
    private static let source: [Recorded<Event<Int>>] = [
        .next(150, 0), .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
        .next(370, 7), .next(420, 8), .next(470, 9),
    ]

    /// Labels each element with the index of its window.
    private static func labelled(
        _ xs: TestableObservable<Int>,
        _ scheduler: TestScheduler
    ) -> Observable<String> {
        xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
            .enumerated()
            .flatMap { index, window in window.map { "\(index) \($0)" } }
    }

    @Test func closesEachWindowWhenFullOrWhenItsTimeIsUp() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.completed(600)])
        let res = scheduler.start { Self.labelled(xs, scheduler) }
        // Windows: [1 2 3] full at 240; [4] closed by time at 310; [5 6 7] full at 370; [8] by
        // time at 440; [9] by time at 510.
        #expect(
            res.events == [
                .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"), .next(320, "2 5"),
                .next(350, "2 6"), .next(370, "2 7"), .next(420, "3 8"), .next(470, "4 9"), .completed(600),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test func windowsOpenAtSubscriptionAndWhenTheyClose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.completed(600)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).map { _ in "window" }
        }
        #expect(res.events.map(\.time) == [200, 240, 310, 370, 440, 510, 580, 600])
        #expect(res.events.last == .completed(600))
    }

    @Test func windowsHoldTheirElementsAndCompleteWhenClosed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.completed(600)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).concatMap { $0.toArray() }
        }
        #expect(
            res.events == [
                .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]), .next(510, [9]),
                .next(580, []), .next(600, []), .completed(600),
            ]
        )
    }

    @Test func errorEndsTheOpenWindowAndTheOuterSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.error(600, TestError(1))])
        let res = scheduler.start { Self.labelled(xs, scheduler) }
        #expect(
            res.events == [
                .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"), .next(320, "2 5"),
                .next(350, "2 6"), .next(370, "2 7"), .next(420, "3 8"), .next(470, "4 9"), .error(600, TestError(1)),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test func disposingEarlyStopsTheWindowsAndTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.completed(600)])
        let res = scheduler.start(disposed: 370) { Self.labelled(xs, scheduler) }
        #expect(
            res.events == [
                .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"), .next(320, "2 5"),
                .next(350, "2 6"), .next(370, "2 7"),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 370)])
    }

    @Test func neverSourceSendsAnEmptyWindowPerTimeSpan() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([]))
        let res = scheduler.start(disposed: 450) {
            xs.window(timeSpan: .seconds(100), count: 3, scheduler: scheduler).concatMap { $0.toArray() }
        }
        #expect(res.events == [.next(300, []), .next(400, [])])
        #expect(xs.subscriptions == [Subscription(200, 450)])
    }

    @Test func emptySourceCompletesTheOnlyWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.completed(250)]))
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(100), count: 3, scheduler: scheduler).concatMap { $0.toArray() }
        }
        #expect(res.events == [.next(250, []), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func zeroCountClosesWindowsByTimeOnly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.completed(400)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(100), count: 0, scheduler: scheduler).concatMap { $0.toArray() }
        }
        // The source completes at 400 before the second window's timer (also due at 400) fires.
        #expect(res.events == [.next(300, [1, 2, 3, 4]), .next(400, [5, 6, 7]), .completed(400)])
    }

    @Test func aHeldWindowKeepsTheSourceSubscribedAfterTheOuterIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.completed(600)])
        let first = scheduler.createObserver(Int.self)
        let outerSubscription = Locked<(any Disposable)?>(nil)
        let windowSubscription = Locked<(any Disposable)?>(nil)
        scheduler.scheduleAt(200) {
            let subscription = xs.window(timeSpan: .seconds(500), count: 3, scheduler: scheduler)
                .take(1)
                .subscribe(onNext: { window in
                    let inner = window.subscribe(first)
                    windowSubscription.withLock { $0 = inner }
                })
            outerSubscription.withLock { $0 = subscription }
        }
        scheduler.scheduleAt(215) { windowSubscription.value?.dispose() }
        scheduler.start()
        #expect(first.events == [.next(205, 1), .next(210, 2)])
        // `take(1)` disposed the outer subscription at once; the window held the source until 215.
        #expect(xs.subscriptions == [Subscription(200, 215)])
        outerSubscription.value?.dispose()
    }

    @Test func windowsOfARealSchedulerCoverEveryElementOnce() {
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let done = DispatchSemaphore(value: 0)
        let received = Locked<[[Int]]>([])
        let subscription = Observable.range(start: 1, count: 10, scheduler: scheduler)
            .window(timeSpan: .seconds(60), count: 3, scheduler: scheduler)
            .concatMap { $0.toArray() }
            .subscribe(
                onNext: { window in received.withLock { $0.append(window) } },
                onCompleted: { done.signal() }
            )
        #expect(done.waitOrTimeOut())
        #expect(received.value == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]])
        subscription.dispose()
    }
}

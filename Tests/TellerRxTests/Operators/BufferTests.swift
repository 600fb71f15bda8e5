import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct BufferTests {
    private static let source: [Recorded<Event<Int>>] = [
        .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6), .next(370, 7),
        .next(420, 8), .next(470, 9),
    ]

    @Test func sendsAnArrayWhenFullOrWhenTheWindowEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.completed(600)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(
            res.events == [
                .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]), .next(510, [9]),
                .next(580, []), .next(600, []), .completed(600),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test func errorDropsTheCurrentArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.error(600, TestError(1))])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(
            res.events == [
                .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]), .next(510, [9]),
                .next(580, []), .error(600, TestError(1)),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test func disposingEarlyStopsTheWindows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source + [.completed(600)])
        let res = scheduler.start(disposed: 370) { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(res.events == [.next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7])])
        #expect(xs.subscriptions == [Subscription(200, 370)])
    }

    @Test func neverSourceSendsAnEmptyArrayEveryWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([]))
        let res = scheduler.start(disposed: 500) { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
        #expect(res.events == [.next(300, []), .next(400, [])])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func emptySourceSendsTheEmptyArrayThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.completed(250)]))
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
        #expect(res.events == [.next(250, []), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func completionSendsThePartlyFilledArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
        #expect(res.events == [.next(230, [1, 2]), .completed(230)])
    }

    @Test func fullArrayRestartsTheWindowTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3)])
        let res = scheduler.start(disposed: 400) { xs.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler) }
        // The window closed by count at 220 would have ended at 300; the next one ends at 320.
        #expect(res.events == [.next(220, [1, 2]), .next(320, [3])])
    }

    @Test func countOfZeroBuffersByTimeOnly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .completed(350)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 0, scheduler: scheduler) }
        #expect(res.events == [.next(300, [1, 2, 3]), .next(350, []), .completed(350)])
    }

    @Test func bufferOnARealQueueGroupsBySize() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "buffer")
        let arrays = Locked<[[Int]]>([])
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable.from(Array(1...10))
            .buffer(timeSpan: .seconds(60), count: 3, scheduler: scheduler)
            .subscribe(onNext: { array in arrays.withLock { $0.append(array) } }, onCompleted: { done.signal() })
        #expect(done.waitOrTimeOut())
        #expect(arrays.value == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]])
        subscription.dispose()
    }
}

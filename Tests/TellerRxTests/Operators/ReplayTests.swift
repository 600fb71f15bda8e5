import TellerRx
import TellerTesting
import Testing

@Suite struct ReplayTests {
    @Test func lateSubscriberGetsTheBufferThenLiveEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(300, 4), .completed(400),
        ])
        let replayed = xs.replay(2)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = replayed.connect() }
        scheduler.scheduleAt(250) { _ = replayed.subscribe(late) }
        scheduler.start()
        #expect(late.events == [.next(250, 2), .next(250, 3), .next(300, 4), .completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test func replayAllKeepsEveryElementAndTheEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError(1))])
        let replayed = xs.replayAll()
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = replayed.connect() }
        scheduler.scheduleAt(500) { _ = replayed.subscribe(late) }
        scheduler.start()
        #expect(late.events == [.next(500, 1), .next(500, 2), .error(500, TestError(1))])
    }

    @Test func nothingIsSubscribedBeforeConnect() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start { xs.replay(1) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [])
    }
}

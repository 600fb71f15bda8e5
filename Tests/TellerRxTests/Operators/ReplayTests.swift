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

    @Test func replayAllReplaysEveryElementOfTheConnectionThenItsEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .error(240, TestError(1)),
        ])
        let replayed = xs.replayAll()
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = replayed.connect() }
        scheduler.scheduleAt(235) { _ = replayed.subscribe(late) }
        scheduler.start()
        #expect(late.events == [.next(235, 1), .next(235, 2), .next(235, 3), .error(240, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func aSubscriberBetweenConnectionsGetsNothingOfThePreviousConnection() {
        // RxSwift 6 makes `replay` with `multicast(makeSubject:)`: each connection gets a new
        // subject, so the buffer of a disposed connection is gone.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(410, 3), .completed(500)])
        let replayed = xs.replay(3)
        let res = scheduler.createObserver(Int.self)
        let connection = SubscriptionSlot()
        scheduler.scheduleAt(200) { connection.set(replayed.connect()) }
        scheduler.scheduleAt(300) { connection.dispose() }
        scheduler.scheduleAt(350) { _ = replayed.subscribe(res) }
        scheduler.scheduleAt(400) { _ = replayed.connect() }
        scheduler.start()
        #expect(res.events == [.next(410, 3), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 300), Subscription(400, 500)])
    }

    @Test func reconnectingStartsWithAnEmptyBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let replayed = xs.replayAll()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = replayed.connect() }
        scheduler.scheduleAt(250) { _ = replayed.subscribe(first) }
        scheduler.scheduleAt(300) { _ = replayed.connect() }
        scheduler.scheduleAt(315) { _ = replayed.subscribe(second) }
        scheduler.start()
        // The first connection ended at 230 and took its subject along: `first` waits for the
        // next connection, and `second` is replayed only what that connection sent.
        #expect(first.events == [.next(310, 1), .next(320, 2), .completed(330)])
        #expect(second.events == [.next(315, 1), .next(320, 2), .completed(330)])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(300, 330)])
    }

    @Test func aSubscriberAfterTheSourceEndedGetsNothingUntilItReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let replayed = xs.replayAll()
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = replayed.connect() }
        scheduler.scheduleAt(500) { _ = replayed.subscribe(late) }
        scheduler.start()
        #expect(late.events == [])
    }

    @Test func nothingIsSubscribedBeforeConnect() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start { xs.replay(1) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [])
    }
}

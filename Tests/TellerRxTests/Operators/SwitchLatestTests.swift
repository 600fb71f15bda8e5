import TellerRx
import TellerTesting
import Testing

@Suite struct SwitchLatestTests {
    @Test func neverOuterSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Observable<Int>>>]())
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptyOuterCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Observable<Int>>>.completed(300)])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func followsTheLatestInnerSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 101), .next(20, 102), .next(110, 103), .completed(200)])
        let ys2 = scheduler.createColdObservable([.next(10, 201), .next(20, 202), .completed(50)])
        let ys3 = scheduler.createColdObservable([.next(10, 301), .completed(20)])
        let xs = scheduler.createHotObservable([
            .next(300, ys1.asObservable()), .next(400, ys2.asObservable()), .next(500, ys3.asObservable()),
            .completed(600),
        ])
        let res = scheduler.start { xs.switchLatest() }
        #expect(
            res.events == [
                .next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202), .next(510, 301),
                .completed(600),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 600)])
        #expect(ys1.subscriptions == [Subscription(300, 400)])
        #expect(ys2.subscriptions == [Subscription(400, 450)])
        #expect(ys3.subscriptions == [Subscription(500, 520)])
    }

    @Test func outerCompletingWaitsForTheLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 101), .completed(100)])
        let xs = scheduler.createHotObservable([.next(300, ys1.asObservable()), .completed(350)])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.next(310, 101), .completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 350)])
        #expect(ys1.subscriptions == [Subscription(300, 400)])
    }

    @Test func innerErrorEndsAtOnceAndDisposesTheOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 101), .error(20, TestError(1))])
        let xs = scheduler.createHotObservable([.next(300, ys1.asObservable()), .completed(600)])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.next(310, 101), .error(320, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 320)])
        #expect(ys1.subscriptions == [Subscription(300, 320)])
    }

    @Test func outerErrorDisposesTheLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 101), .completed(200)])
        let xs = scheduler.createHotObservable([.next(300, ys1.asObservable()), .error(350, TestError(2))])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.next(310, 101), .error(350, TestError(2))])
        #expect(ys1.subscriptions == [Subscription(300, 350)])
    }

    @Test func disposingEarlyDisposesTheOuterAndTheLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 101), .next(100, 102), .completed(200)])
        let xs = scheduler.createHotObservable([.next(300, ys1.asObservable()), .completed(600)])
        let res = scheduler.start(disposed: 350) { xs.switchLatest() }
        #expect(res.events == [.next(310, 101)])
        #expect(xs.subscriptions == [Subscription(200, 350)])
        #expect(ys1.subscriptions == [Subscription(300, 350)])
    }
}

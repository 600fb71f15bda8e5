import TellerRx
import TellerTesting
import Testing

@Suite struct AmbTests {
    @Test func neverSourcesSendNothingAndStaySubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { xs.amb(ys) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
        #expect(ys.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptyListNeverSendsAnything() {
        let res = TestScheduler(initialClock: 0).start { Observable<Int>.amb([Observable<Int>]()) }
        #expect(res.events == [])
    }

    @Test func theFirstToSendAnElementWinsAndTheOtherIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .next(250, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(260)])
        let res = scheduler.start { xs.amb(ys) }
        #expect(res.events == [.next(220, 10), .next(240, 20), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(200, 260)])
    }

    @Test func completionAlsoWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(225)])
        let ys = scheduler.createHotObservable([.next(230, 10), .completed(260)])
        let res = scheduler.start { xs.amb(ys) }
        #expect(res.events == [.completed(225)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
        #expect(ys.subscriptions == [Subscription(200, 225)])
    }

    @Test func anErrorAlsoWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .completed(300)])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.error(220, TestError(1))])
        let res = scheduler.start { xs.amb(ys) }
        #expect(res.events == [.error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test func anErrorFromTheLoserAfterTheDecisionIsIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        scheduler.scheduleAt(210) { left.onNext(1) }
        scheduler.scheduleAt(220) {
            right.onError(TestError(2))
            left.onNext(2)
        }
        let res = scheduler.start { left.amb(right) }
        #expect(res.events == [.next(210, 1), .next(220, 2)])
    }

    @Test func aCollectionRacesAllItsSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(240, 1), .completed(300)])
        let x2 = scheduler.createHotObservable([.next(220, 2), .next(250, 22), .completed(310)])
        let x3 = scheduler.createHotObservable([.next(230, 3), .completed(320)])
        let res = scheduler.start { Observable.amb([x1.asObservable(), x2.asObservable(), x3.asObservable()]) }
        #expect(res.events == [.next(220, 2), .next(250, 22), .completed(310)])
        #expect(x1.subscriptions == [Subscription(200, 220)])
        #expect(x2.subscriptions == [Subscription(200, 310)])
        #expect(x3.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlyDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .completed(300)])
        let ys = scheduler.createHotObservable([.next(240, 10), .completed(260)])
        let res = scheduler.start(disposed: 220) { xs.amb(ys) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test func aSynchronousLeftWinsBeforeTheRightIsSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createHotObservable([.next(210, 10), .completed(260)])
        let res = scheduler.start { Observable.just(1).amb(ys) }
        #expect(res.events == [.next(200, 1), .completed(200)])
        #expect(ys.subscriptions == [Subscription(200, 200)])
    }
}

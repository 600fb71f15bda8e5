@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct RefCountTests {
    @Test func neverSourceStaysConnectedUntilTheSubscriberLeaves() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.publish().refCount() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.publish().refCount() }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func valuesPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.publish().refCount() }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, TestError(3))])
        let res = scheduler.start { xs.publish().refCount() }
        #expect(res.events == [.next(210, 1), .error(300, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func disposingEarlyDisconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.publish().refCount() }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func connectsOnTheFirstSubscriberDisconnectsAfterTheLastAndReconnectsForTheNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(320, 2), .next(550, 3)])
        let ys = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let third = scheduler.createObserver(Int.self)
        scheduler.subscribe(ys, first, at: 200, disposeAt: 350)
        scheduler.subscribe(ys, second, at: 300, disposeAt: 400)
        scheduler.subscribe(ys, third, at: 500, disposeAt: 600)
        scheduler.start()
        #expect(first.events == [.next(210, 1), .next(320, 2)])
        #expect(second.events == [.next(320, 2)])
        #expect(third.events == [.next(550, 3)])
        #expect(xs.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
    }

    @Test func afterCompletionThePublishedSourceIsSubscribedAgainForTheNextSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.subscribe(ys, first, at: 200)
        scheduler.subscribe(ys, second, at: 300)
        scheduler.start()
        #expect(first.events == [.next(210, 1), .completed(220)])
        #expect(second.events == [.next(310, 1), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
    }

    @Test func withOneFixedSubjectAfterCompletionTheNextSubscriberGetsCompletionAndNoNewConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = xs.multicast(PublishSubject<Int>()).refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.subscribe(ys, first, at: 200)
        scheduler.subscribe(ys, second, at: 300)
        scheduler.start()
        #expect(first.events == [.next(210, 1), .completed(220)])
        #expect(second.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func subscriberResubscribingFromTheTerminalEventReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let ys = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let again = scheduler.createObserver(Int.self)
        let slot = SubscriptionSlot()
        scheduler.scheduleAt(200) {
            _ = ys.subscribe { event in
                first.on(event)
                if event.isStopEvent { slot.set(ys.subscribe(again)) }
            }
        }
        scheduler.scheduleAt(235) { slot.dispose() }
        scheduler.start()
        #expect(first.events == [.next(210, 1), .error(220, TestError(1))])
        #expect(again.events == [.next(230, 1)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 235)])
    }

    @Test func lastSubscriberLeavingFromInsideASynchronousEmissionDisconnects() {
        let source = CountingSource()
        let subject = PublishSubject<Int>()
        let upstream = Observable<Int>.create { observer in
            Disposables.create(source.observable.subscribe(), subject.subscribe(observer))
        }
        let shared = upstream.publish().refCount()
        let slot = SubscriptionSlot()
        let received = Locked<[Int]>([])
        slot.set(
            shared.subscribe(onNext: { value in
                received.append(value)
                slot.dispose()
            })
        )
        subject.onNext(1)
        subject.onNext(2)
        #expect(received.value == [1])
        #expect(source.liveSubscriptions == 0)
        #expect(subject.hasObservers == false)
    }
}

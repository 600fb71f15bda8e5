@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct MulticastTests {
    private static let hotEvents: [Recorded<Event<Int>>] = [
        .next(40, 0), .next(90, 1), .next(150, 2), .next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6),
        .next(340, 7), .completed(390),
    ]

    @Test func observersReceiveEventsOnlyWhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.hotEvents)
        let connectable = xs.multicast(PublishSubject<Int>())
        let res = scheduler.createObserver(Int.self)
        scheduler.subscribe(connectable.asObservable(), res, at: 200)
        let connection = SubscriptionSlot()
        scheduler.scheduleAt(250) { connection.set(connectable.connect()) }
        scheduler.scheduleAt(300) { connection.dispose() }
        scheduler.scheduleAt(320) { connection.set(connectable.connect()) }
        scheduler.start()
        #expect(res.events == [.next(270, 5), .next(330, 6), .next(340, 7), .completed(390)])
        #expect(xs.subscriptions == [Subscription(250, 300), Subscription(320, 390)])
    }

    @Test func errorOfTheSourceReachesTheObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(2))])
        let connectable = xs.multicast(PublishSubject<Int>())
        let res = scheduler.createObserver(Int.self)
        scheduler.subscribe(connectable.asObservable(), res, at: 200)
        scheduler.scheduleAt(200) { _ = connectable.connect() }
        scheduler.start()
        #expect(res.events == [.next(210, 1), .error(250, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func fixedSubjectGivesObserversAfterCompletionTheCompletionAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let connectable = xs.multicast(PublishSubject<Int>())
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.subscribe(connectable.asObservable(), early, at: 150)
        scheduler.scheduleAt(200) { _ = connectable.connect() }
        scheduler.subscribe(connectable.asObservable(), late, at: 300)
        scheduler.start()
        #expect(early.events == [.next(210, 1), .completed(220)])
        #expect(late.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func subjectFactoryGivesEachConnectionAFreshSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let made = Locked(0)
        let connectable = xs.multicast(makeSubject: { () -> PublishSubject<Int> in
            made.increment()
            return PublishSubject<Int>()
        })
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.subscribe(connectable.asObservable(), first, at: 150)
        scheduler.scheduleAt(200) { _ = connectable.connect() }
        scheduler.subscribe(connectable.asObservable(), second, at: 300)
        scheduler.scheduleAt(300) { _ = connectable.connect() }
        scheduler.start()
        #expect(first.events == [.next(210, 1), .completed(220)])
        #expect(second.events == [.next(310, 1), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
        #expect(made.value == 2)
    }

    @Test func connectingTwiceReturnsTheLiveConnectionAndSubscribesTheSourceOnce() {
        let source = CountingSource()
        let connectable = source.observable.multicast(makeSubject: { PublishSubject<Int>() })
        let first = connectable.connect()
        let second = connectable.connect()
        #expect(source.subscriptions == 1)
        second.dispose()
        #expect(source.liveSubscriptions == 0)
        first.dispose()
        #expect(source.disposals == 1)
        let third = connectable.connect()
        #expect(source.subscriptions == 2)
        third.dispose()
    }

    @Test func publishSendsNothingBeforeConnectAndOnlyLaterEventsAfter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.hotEvents)
        let published = xs.publish()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.subscribe(published.asObservable(), early, at: 200)
        scheduler.scheduleAt(235) { _ = published.connect() }
        scheduler.subscribe(published.asObservable(), late, at: 300, disposeAt: 335)
        scheduler.start()
        #expect(early.events == [.next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7), .completed(390)])
        #expect(late.events == [.next(330, 6)])
        #expect(xs.subscriptions == [Subscription(235, 390)])
    }

    @Test func publishWithSynchronousSourceDeliversOnConnect() {
        let published = Observable.of(1, 2, 3).publish()
        let observer = RecordingObserver<Int>()
        _ = published.subscribe(observer)
        #expect(observer.events.isEmpty)
        _ = published.connect()
        #expect(observer.events == [.next(1), .next(2), .next(3), .completed])
    }

    @Test func disposingTheConnectionLeavesObserversSubscribedButSilent() {
        let subject = PublishSubject<Int>()
        let published = subject.publish()
        let observer = RecordingObserver<Int>()
        _ = published.subscribe(observer)
        let connection = published.connect()
        subject.onNext(1)
        connection.dispose()
        subject.onNext(2)
        #expect(observer.events == [.next(1)])
        #expect(subject.hasObservers == false)
    }
}

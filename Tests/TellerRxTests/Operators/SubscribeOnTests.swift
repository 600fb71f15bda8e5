import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct SubscribeOnTests {
    // MARK: Virtual time

    @Test func subscribesAndUnsubscribesOneTickLaterOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let subscribedAt = Locked<Int?>(nil)
        let disposedAt = Locked<Int?>(nil)
        let xs = Observable<Int>.create { _ in
            subscribedAt.withLock { $0 = scheduler.clock }
            return Disposables.create { disposedAt.withLock { $0 = scheduler.clock } }
        }
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [])
        #expect(subscribedAt.value == 201)
        #expect(disposedAt.value == 1001)
    }

    @Test func neverSourceStaysSubscribedUntilDisposedOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(201, 1001)])
    }

    @Test func completionPassesThroughAndTheSourceIsDisposedOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.completed(300)]))
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }

    @Test func errorPassesThroughAndTheSourceIsDisposedOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.error(300, TestError(1))]))
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [.error(300, TestError(1))])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }

    @Test func elementsPassThroughWhereTheSourceSendsThem() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [.next(210, 2), .next(220, 3)])
        #expect(xs.subscriptions == [Subscription(201, 1001)])
    }

    @Test func disposingEarlyUnsubscribesOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.subscribe(on: scheduler) }
        #expect(res.events == [.next(210, 2)])
        #expect(xs.subscriptions == [Subscription(201, 251)])
    }

    @Test func disposingBeforeTheScheduledSubscriptionRunsNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let res = scheduler.start(created: 100, subscribed: 200, disposed: 200) { xs.subscribe(on: scheduler) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [])
    }

    @Test func coldSourceIsTimedFromTheDelayedSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [.next(211, 1), .completed(221)])
        #expect(xs.subscriptions == [Subscription(201, 222)])
    }

    @Test func olderSpellingSubscribeOnBehavesTheSame() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let res = scheduler.start { xs.subscribeOn(scheduler) }
        #expect(res.events == [.next(210, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }

    // MARK: Real Dispatch queues

    @Test func subscribesAndDisposesOnTheSchedulersQueue() {
        let marker = QueueMarker(label: "subscribe-on.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "subscribe-on")
        let subscribedOnQueue = Locked<Bool?>(nil)
        let disposedOnQueue = Locked<Bool?>(nil)
        let subscribed = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0)
        let source = Observable<Int>.create { _ in
            subscribedOnQueue.withLock { $0 = marker.isCurrent }
            subscribed.signal()
            return Disposables.create {
                disposedOnQueue.withLock { $0 = marker.isCurrent }
                disposed.signal()
            }
        }
        let subscription = source.subscribe(on: scheduler).subscribe()
        #expect(subscribed.waitOrTimeOut())
        subscription.dispose()
        #expect(disposed.waitOrTimeOut())
        #expect(subscribedOnQueue.value == true)
        #expect(disposedOnQueue.value == true)
    }

    @Test func synchronousSourceRunsOnTheQueueNotOnTheSubscribingThread() {
        let marker = QueueMarker(label: "subscribe-on.sync")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "subscribe-on.sync")
        let values = Locked<[Int]>([])
        let offQueue = Locked(0)
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable.of(1, 2, 3)
            .subscribe(on: scheduler)
            .subscribe(
                onNext: { value in
                    if !marker.isCurrent { offQueue.increment() }
                    values.append(value)
                },
                onCompleted: { done.signal() }
            )
        #expect(done.waitOrTimeOut())
        #expect(values.value == [1, 2, 3])
        #expect(offQueue.value == 0)
        subscription.dispose()
    }
}

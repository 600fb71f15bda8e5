import Dispatch
import Foundation
import Synchronization
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct ObserveOnTests {
    // MARK: Virtual time

    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletesOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [.completed(301)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func eachEventArrivesOneTickAfterItWasSent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(240, 3), .completed(300)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 2), .next(241, 3), .completed(301)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorArrivesOneTickLaterAfterTheElementsBeforeIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(300, TestError(1))])
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 2), .error(301, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func disposingDropsEventsQueuedButNotYetDelivered() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        // The element sent at 240 is queued for 241, but the subscription ends at 240.
        let res = scheduler.start(disposed: 240) { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 1)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func eventsSentInOneTickAreDeliveredTogetherInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(210, 3), .completed(210)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 1), .next(211, 2), .next(211, 3), .completed(211)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func eventsAfterTheTerminalEventAreDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(210), .next(210, 5), .error(210, TestError(1))])
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [.completed(211)])
    }

    @Test func coldSourceIsDeliveredOneTickAfterEachEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 1), .next(221, 2), .completed(231)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func reentrantEmissionIsDeliveredAfterTheCurrentEventInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = subject.observe(on: scheduler).subscribe { event in
                observer.on(event)
                if case .next(1) = event { subject.onNext(2) }
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(220) { subject.onNext(3) }
        scheduler.start()
        #expect(observer.events == [.next(211, 1), .next(211, 2), .next(221, 3)])
    }

    @Test func drainYieldsTheSchedulerAfterAThousandAndTwentyFourEventsWithoutReordering() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        // Each delivered element makes the source send the next one while the drain runs.
        scheduler.scheduleAt(200) {
            _ = subject.observe(on: scheduler).subscribe { event in
                observer.on(event)
                if case .next(let value) = event, value < 2_999 { subject.onNext(value + 1) }
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(0) }
        scheduler.start()
        let expected: [Recorded<Event<Int>>] = (0..<3_000).map { .next(211 + $0 / 1_024, $0) }
        #expect(observer.events == expected)
    }

    @Test func errorSentWhileTheDrainYieldsAcrossRunsArrivesAfterEveryElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        // Each delivered element makes the source send the next one; the last one, an error.
        scheduler.scheduleAt(200) {
            _ = subject.observe(on: scheduler).subscribe { event in
                observer.on(event)
                guard case .next(let value) = event else { return }
                if value < 2_999 {
                    subject.onNext(value + 1)
                } else {
                    subject.onError(TestError(1))
                }
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(0) }
        scheduler.start()
        let elements: [Recorded<Event<Int>>] = (0..<3_000).map { .next(211 + $0 / 1_024, $0) }
        let received = observer.events
        #expect(received.count == 3_001)
        #expect(received.dropLast() == elements[...])
        #expect(received.last == .error(213, TestError(1)))
    }

    @Test func olderSpellingObserveOnBehavesTheSame() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let res = scheduler.start { xs.observeOn(scheduler) }
        #expect(res.events == [.next(211, 2), .completed(301)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func currentThreadSchedulerDeliversSynchronouslyInOrder() {
        let values = Locked<[Int]>([])
        let completed = Locked(false)
        _ = Observable.of(1, 2, 3)
            .observe(on: CurrentThreadScheduler.instance)
            .subscribe(onNext: { values.append($0) }, onCompleted: { completed.withLock { $0 = true } })
        #expect(values.value == [1, 2, 3])
        #expect(completed.value)
    }

    // MARK: Real Dispatch queues

    @Test func serialQueueSchedulerDeliversTenThousandEventsInOrderOnItsQueue() {
        let marker = QueueMarker(label: "observe-on.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "observe-on")
        let received = Locked<[Int]>([])
        let deliveredOffQueue = Locked(0)
        let completedOnQueue = Locked(false)
        let done = DispatchSemaphore(value: 0)
        let source = Observable<Int>.create { observer in
            DispatchQueue.global().async {
                for value in 0..<10_000 { observer.onNext(value) }
                observer.onCompleted()
            }
            return Disposables.create()
        }
        let subscription = source.observe(on: scheduler).subscribe(
            onNext: { value in
                if !marker.isCurrent { deliveredOffQueue.increment() }
                received.append(value)
            },
            onCompleted: {
                completedOnQueue.withLock { $0 = marker.isCurrent }
                done.signal()
            }
        )
        #expect(done.waitOrTimeOut())
        #expect(received.value == Array(0..<10_000))
        #expect(deliveredOffQueue.value == 0)
        #expect(completedOnQueue.value)
        subscription.dispose()
    }

    @Test func disposingStopsDeliveryAndFreesTheQueuedElementsAtOnce() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.dispose")
        let subject = PublishSubject<Tracked>()
        let refs = WeakRefs()
        let delivered = Locked<[Int]>([])
        let firstArrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { tracked in
            delivered.append(tracked.id)
            if tracked.id == 0 {
                firstArrived.signal()
                _ = release.waitOrTimeOut()
            }
        })
        subject.onNext(Tracked(0))
        #expect(firstArrived.waitOrTimeOut())
        // The queue is now busy delivering element 0; these wait behind it.
        for id in 1...100 {
            let tracked = Tracked(id)
            refs.track(tracked)
            subject.onNext(tracked)
        }
        subscription.dispose()
        #expect(refs.aliveCount == 0)
        release.signal()
        let idle = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            idle.signal()
            return Disposables.create()
        }
        #expect(idle.waitOrTimeOut())
        #expect(delivered.value == [0])
    }

    @Test func eventsFromManyThreadsThroughASubjectAreDeliveredOneAtATime() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.stress")
        let subject = PublishSubject<Int>()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let count = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { _ in
                if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
                    overlaps.add(1, ordering: .relaxed)
                }
                count.add(1, ordering: .relaxed)
                inside.subtract(1, ordering: .acquiringAndReleasing)
            },
            onCompleted: { done.signal() }
        )
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<1_000 { subject.onNext(thread * 1_000 + value) }
        }
        subject.onCompleted()
        #expect(done.waitOrTimeOut())
        #expect(count.load(ordering: .relaxed) == 8_000)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        subscription.dispose()
    }

    @Test func mainSchedulerDeliversOnTheMainQueue() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let values = Locked<[Int]>([])
        let offMain = Locked(0)
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable.of(1, 2, 3)
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .observe(on: MainScheduler.instance)
            .subscribe(
                onNext: { value in
                    if !MainQueue.isCurrent { offMain.increment() }
                    values.append(value)
                },
                onCompleted: { done.signal() }
            )
        #expect(done.waitOrTimeOut())
        #expect(values.value == [1, 2, 3])
        #expect(offMain.value == 0)
        subscription.dispose()
    }

    @Test func mainSchedulerInstanceDeliversAtOnceWhenSentOnTheMainThread() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let deliveredSynchronously = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            let received = Locked(false)
            let subscription = Observable.just(1)
                .observe(on: MainScheduler.instance)
                .subscribe(onNext: { _ in received.withLock { $0 = true } })
            deliveredSynchronously.withLock { $0 = received.value }
            subscription.dispose()
            done.signal()
        }
        #expect(done.waitOrTimeOut())
        #expect(deliveredSynchronously.value == true)
    }

    @Test func mainSchedulerAsyncInstanceDeliversOnTheMainQueueLater() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let deliveredSynchronously = Locked<Bool?>(nil)
        let deliveredOnMain = Locked(false)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            let received = Locked(false)
            _ = Observable.just(1)
                .observe(on: MainScheduler.asyncInstance)
                .subscribe(onNext: { _ in
                    received.withLock { $0 = true }
                    deliveredOnMain.withLock { $0 = MainQueue.isCurrent }
                    done.signal()
                })
            deliveredSynchronously.withLock { $0 = received.value }
        }
        #expect(done.waitOrTimeOut())
        #expect(deliveredSynchronously.value == false)
        #expect(deliveredOnMain.value)
    }
}

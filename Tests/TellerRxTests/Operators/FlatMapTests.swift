@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct FlatMapTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { xs.flatMap { Observable.just($0) } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.flatMap { Observable.just($0) } }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func mergesOverlappingInnerSequencesAndWaitsForAllOfThem() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 10), .next(30, 11), .completed(40)]),
            scheduler.createColdObservable([.next(10, 20), .completed(100)]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .completed(230)])
        let res = scheduler.start { xs.flatMap { inners[$0] } }
        #expect(res.events == [.next(220, 10), .next(230, 20), .next(240, 11), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(inners[0].subscriptions == [Subscription(210, 250)])
        #expect(inners[1].subscriptions == [Subscription(220, 320)])
    }

    @Test func sourceErrorDisposesEveryInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 10), .completed(200)])
        let xs = scheduler.createHotObservable([.next(210, 0), .error(250, TestError(1))])
        let res = scheduler.start { xs.flatMap { _ in inner } }
        #expect(res.events == [.next(220, 10), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(inner.subscriptions == [Subscription(210, 250)])
    }

    @Test func innerErrorDisposesTheSourceAndTheOtherInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 10), .completed(200)]),
            scheduler.createColdObservable([Recorded<Event<Int>>.error(20, TestError(2))]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .completed(500)])
        let res = scheduler.start { xs.flatMap { inners[$0] } }
        #expect(res.events == [.next(220, 10), .error(240, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(inners[0].subscriptions == [Subscription(210, 240)])
        #expect(inners[1].subscriptions == [Subscription(220, 240)])
    }

    @Test func selectorErrorDisposesTheSourceAndEveryInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 10), .completed(200)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(500)])
        let res = scheduler.start {
            xs.flatMap { value -> TestableObservable<Int> in
                if value == 1 { throw TestError(3) }
                return inner
            }
        }
        #expect(res.events == [.next(220, 10), .error(230, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func disposingEarlyDisposesTheSourceAndEveryInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 10), .next(100, 11), .completed(200)])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(500)])
        let res = scheduler.start(disposed: 250) { xs.flatMap { _ in inner } }
        #expect(res.events == [.next(220, 10)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(inner.subscriptions == [Subscription(210, 250)])
    }

    @Test func synchronousInnerSequencesAreForwardedInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3).flatMap { Observable.of($0, $0 * 10) } }
        #expect(
            res.events == [
                .next(200, 1), .next(200, 10), .next(200, 2), .next(200, 20), .next(200, 3), .next(200, 30),
                .completed(200),
            ]
        )
    }

    @Test func justInnerSequencesAreForwardedAndCountAsCompleted() {
        // `just` inners take a shortcut (no inner subscription); the events must not change.
        let scheduler = TestScheduler(initialClock: 0)
        let running = scheduler.createColdObservable([.next(5, 100), .completed(50)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .next(230, 2), .completed(240)])
        let res = scheduler.start {
            xs.flatMap { value -> Observable<Int> in value == 1 ? running.asObservable() : Observable.just(value) }
        }
        #expect(res.events == [.next(210, 0), .next(225, 100), .next(230, 2), .completed(270)])
        #expect(running.subscriptions == [Subscription(220, 270)])
    }

    @Test func innerSequenceSubscribedOnAnotherSchedulerIsDelivered() {
        // Scheduler hop: inner elements arrive later, from work the test scheduler runs.
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.of(1, 2).flatMap { value in Observable.just(value * 10, scheduler: scheduler) }
        }
        // Each inner sends its element one tick after subscription and completes a tick later.
        #expect(res.events == [.next(201, 10), .next(201, 20), .completed(202)])
    }

    @Test func anInnerSequenceMayEmitIntoTheSourceFromInsideTheObserver() {
        let source = PublishSubject<Int>()
        let received = Locked<[Int]>([])
        let subscription = source.flatMap { Observable.of($0, $0 + 100) }
            .subscribe(onNext: { value in
                received.append(value)
                if value == 1 { source.onNext(2) }
            })
        source.onNext(1)
        // `of` trampolines on the current thread: the inner for 2 starts after the one for 1.
        #expect(received.value == [1, 101, 2, 102])
        subscription.dispose()
    }
}

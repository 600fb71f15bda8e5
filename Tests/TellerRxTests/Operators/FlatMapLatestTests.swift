import TellerRx
import TellerTesting
import Testing

@Suite struct FlatMapLatestTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { xs.flatMapLatest { Observable.just($0) } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.flatMapLatest { Observable.just($0) } }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func aNewElementDisposesThePreviousInnerSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 10), .next(40, 11), .completed(50)]),
            scheduler.createColdObservable([.next(10, 20), .next(40, 21), .completed(50)]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(240, 1), .completed(260)])
        let res = scheduler.start { xs.flatMapLatest { inners[$0] } }
        #expect(res.events == [.next(220, 10), .next(250, 20), .next(280, 21), .completed(290)])
        #expect(inners[0].subscriptions == [Subscription(210, 240)])
        #expect(inners[1].subscriptions == [Subscription(240, 290)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func completesWithTheSourceWhenTheLatestInnerHasCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 10), .completed(20)])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(300)])
        let res = scheduler.start { xs.flatMapLatest { _ in inner } }
        #expect(res.events == [.next(220, 10), .completed(300)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func innerErrorEndsAtOnceAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 10), .error(20, TestError(1))])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(300)])
        let res = scheduler.start { xs.flatMapLatest { _ in inner } }
        #expect(res.events == [.next(220, 10), .error(230, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func aReplacedInnerCannotSendAnything() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .completed(300)])
        scheduler.scheduleAt(230) {
            first.onNext(99)
            first.onError(TestError(9))
            second.onNext(20)
        }
        let res = scheduler.start { xs.flatMapLatest { $0 == 0 ? first.asObservable() : second.asObservable() } }
        #expect(res.events == [.next(230, 20)])
    }

    @Test func sourceErrorDisposesTheLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 10), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .error(230, TestError(2))])
        let res = scheduler.start { xs.flatMapLatest { _ in inner } }
        #expect(res.events == [.next(220, 10), .error(230, TestError(2))])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func selectorErrorEndsAtOnceAndDisposesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 10), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(300)])
        let res = scheduler.start {
            xs.flatMapLatest { value -> TestableObservable<Int> in
                if value == 1 { throw TestError(3) }
                return inner
            }
        }
        #expect(res.events == [.next(220, 10), .error(230, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func disposingEarlyDisposesTheSourceAndTheLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 10), .next(40, 11), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(400)])
        let res = scheduler.start(disposed: 240) { xs.flatMapLatest { _ in inner } }
        #expect(res.events == [.next(220, 10)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(inner.subscriptions == [Subscription(210, 240)])
    }

    @Test func aJustInnerReplacesAndDisposesTheRunningInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let running = scheduler.createColdObservable([.next(5, 100), .next(30, 101), .completed(50)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .completed(240)])
        let res = scheduler.start {
            xs.flatMapLatest { value -> Observable<Int> in value == 0 ? running.asObservable() : Observable.just(7) }
        }
        #expect(res.events == [.next(215, 100), .next(220, 7), .completed(240)])
        #expect(running.subscriptions == [Subscription(210, 220)])
    }

    @Test func synchronousInnerSequencesAreForwardedInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.of(1, 2).flatMapLatest { value in
                Observable.create { observer in
                    observer.onNext(value)
                    observer.onNext(value * 10)
                    observer.onCompleted()
                    return Disposables.create()
                }
            }
        }
        #expect(res.events == [.next(200, 1), .next(200, 10), .next(200, 2), .next(200, 20), .completed(200)])
    }
}

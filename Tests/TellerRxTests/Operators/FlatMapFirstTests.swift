@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct FlatMapFirstTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { xs.flatMapFirst { Observable.just($0) } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.flatMapFirst { Observable.just($0) } }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func ignoresElementsWhileAnInnerSequenceIsRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(5, 10), .completed(20)]),
            scheduler.createColdObservable([.next(5, 20), .completed(20)]),
            scheduler.createColdObservable([.next(5, 30), .completed(20)]),
        ]
        let selected = Locked<[Int]>([])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .next(250, 2), .completed(300)])
        let res = scheduler.start {
            xs.flatMapFirst { index -> TestableObservable<Int> in
                selected.append(index)
                return inners[index]
            }
        }
        #expect(res.events == [.next(215, 10), .next(255, 30), .completed(300)])
        // The selector is not called for the ignored element.
        #expect(selected.value == [0, 2])
        #expect(inners[0].subscriptions == [Subscription(210, 230)])
        #expect(inners[1].subscriptions == [])
        #expect(inners[2].subscriptions == [Subscription(250, 270)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func waitsForTheRunningInnerSequenceBeforeCompleting() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(5, 10), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(220)])
        let res = scheduler.start { xs.flatMapFirst { _ in inner } }
        #expect(res.events == [.next(215, 10), .completed(310)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(inner.subscriptions == [Subscription(210, 310)])
    }

    @Test func innerErrorDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([Recorded<Event<Int>>.error(5, TestError(1))])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(300)])
        let res = scheduler.start { xs.flatMapFirst { _ in inner } }
        #expect(res.events == [.error(215, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 215)])
        #expect(inner.subscriptions == [Subscription(210, 215)])
    }

    @Test func sourceErrorDisposesTheRunningInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(5, 10), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .error(230, TestError(2))])
        let res = scheduler.start { xs.flatMapFirst { _ in inner } }
        #expect(res.events == [.next(215, 10), .error(230, TestError(2))])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func selectorErrorIsSentAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(300)])
        let res = scheduler.start {
            xs.flatMapFirst { _ -> Observable<Int> in throw TestError(3) }
        }
        #expect(res.events == [.error(210, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func disposingEarlyDisposesTheRunningInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(5, 10), .next(50, 11), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(400)])
        let res = scheduler.start(disposed: 240) { xs.flatMapFirst { _ in inner } }
        #expect(res.events == [.next(215, 10)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(inner.subscriptions == [Subscription(210, 240)])
    }
}

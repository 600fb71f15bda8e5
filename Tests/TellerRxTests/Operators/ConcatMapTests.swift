@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct ConcatMapTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { xs.concatMap { Observable.just($0) } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.concatMap { Observable.just($0) } }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func runsInnerSequencesOneAfterAnotherInSourceOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 10), .next(20, 11), .completed(30)]),
            scheduler.createColdObservable([.next(5, 20), .completed(10)]),
            scheduler.createColdObservable([.next(5, 30), .completed(10)]),
        ]
        let selected = Locked<[(Int, Int)]>([])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(215, 1), .next(217, 2), .completed(218)])
        let res = scheduler.start {
            xs.concatMap { index -> TestableObservable<Int> in
                selected.withLock { $0.append((index, scheduler.clock)) }
                return inners[index]
            }
        }
        #expect(res.events == [.next(220, 10), .next(230, 11), .next(245, 20), .next(255, 30), .completed(260)])
        // The selector runs when each element arrives, not when its turn comes.
        #expect(selected.value.map(\.1) == [210, 215, 217])
        #expect(inners[0].subscriptions == [Subscription(210, 240)])
        #expect(inners[1].subscriptions == [Subscription(240, 250)])
        #expect(inners[2].subscriptions == [Subscription(250, 260)])
        #expect(xs.subscriptions == [Subscription(200, 218)])
    }

    @Test func queuedJustInnersRunInOrderWhenTheRunningInnerCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let running = scheduler.createColdObservable([.next(5, 100), .completed(30)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(215, 1), .next(220, 2), .completed(225)])
        let res = scheduler.start {
            xs.concatMap { value -> Observable<Int> in value == 0 ? running.asObservable() : Observable.just(value) }
        }
        #expect(res.events == [.next(215, 100), .next(240, 1), .next(240, 2), .completed(240)])
        #expect(running.subscriptions == [Subscription(210, 240)])
    }

    @Test func selectorErrorForAQueuedElementEndsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 10), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(500)])
        let res = scheduler.start {
            xs.concatMap { value -> TestableObservable<Int> in
                if value == 1 { throw TestError(1) }
                return inner
            }
        }
        #expect(res.events == [.next(220, 10), .error(230, TestError(1))])
        #expect(inner.subscriptions == [Subscription(210, 230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func innerErrorEndsAtOnceAndQueuedInnersAreNeverSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 10), .error(20, TestError(2))]),
            scheduler.createColdObservable([.next(5, 20), .completed(10)]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(215, 1), .completed(500)])
        let res = scheduler.start { xs.concatMap { inners[$0] } }
        #expect(res.events == [.next(220, 10), .error(230, TestError(2))])
        #expect(inners[0].subscriptions == [Subscription(210, 230)])
        #expect(inners[1].subscriptions == [])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposingEarlyDisposesTheRunningInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inners = [
            scheduler.createColdObservable([.next(10, 10), .completed(100)]),
            scheduler.createColdObservable([.next(5, 20), .completed(10)]),
        ]
        let xs = scheduler.createHotObservable([.next(210, 0), .next(215, 1), .completed(500)])
        let res = scheduler.start(disposed: 250) { xs.concatMap { inners[$0] } }
        #expect(res.events == [.next(220, 10)])
        #expect(inners[0].subscriptions == [Subscription(210, 250)])
        #expect(inners[1].subscriptions == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}

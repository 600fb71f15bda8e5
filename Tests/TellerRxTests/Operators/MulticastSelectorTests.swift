@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// `multicast(_:selector:)`, on RxSwift's grid for it (completed, error, dispose, zip, and either
/// closure throwing) plus never, empty, one subject and connection per subscriber, and a
/// synchronous source.
@Suite struct MulticastSelectorTests {
    private static let hotEvents: [Recorded<Event<Int>>] = [
        .next(40, 0), .next(90, 1), .next(150, 2), .next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6),
        .next(340, 7),
    ]

    @Test func forwardsTheSelectorsSequenceUntilTheSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.hotEvents + [.completed(390)])
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        #expect(
            res.events == [
                .next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7), .completed(390),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 390)])
    }

    @Test func forwardsTheSourcesError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.hotEvents + [.error(390, TestError(1))])
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        #expect(
            res.events == [
                .next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7),
                .error(390, TestError(1)),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 390)])
    }

    @Test func disposingEndsTheConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.hotEvents)
        let res = scheduler.start(disposed: 300) { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        #expect(res.events == [.next(210, 3), .next(240, 4), .next(270, 5)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func everyUseInsideTheSelectorSharesOneSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.hotEvents + [.completed(390)])
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { shared in Observable.zip(shared, shared) { $0 + $1 } })
        }
        #expect(
            res.events == [
                .next(210, 6), .next(240, 8), .next(270, 10), .next(330, 12), .next(340, 14), .completed(390),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 390)])
    }

    @Test func aThrowingSubjectSelectorFailsAtOnceWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.hotEvents + [.completed(390)])
        let res = scheduler.start {
            xs.multicast({ () throws -> PublishSubject<Int> in throw TestError(2) }, selector: { $0 })
        }
        #expect(res.events == [.error(200, TestError(2))])
        #expect(xs.subscriptions == [])
    }

    @Test func aThrowingSelectorFailsAtOnceWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.hotEvents + [.completed(390)])
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { _ -> Observable<Int> in throw TestError(3) })
        }
        #expect(res.events == [.error(200, TestError(3))])
        #expect(xs.subscriptions == [])
    }

    @Test func aSilentSourceKeepsTheConnectionUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { never.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        #expect(res.events == [])
        #expect(never.subscriptions == [Subscription(200, 1000)])
    }

    @Test func anEmptySourceCompletesTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.next(150, 1), Recorded<Event<Int>>.completed(250)])
        let res = scheduler.start { empty.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        #expect(res.events == [.completed(250)])
        #expect(empty.subscriptions == [Subscription(200, 250)])
    }

    @Test func eachSubscriberGetsItsOwnSubjectAndConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let made = Locked(0)
        let shared = xs.multicast(
            { () -> ReplaySubject<Int> in
                made.increment()
                return ReplaySubject<Int>.createUnbounded()
            },
            selector: { $0 }
        )
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.subscribe(shared, first, at: 200)
        scheduler.subscribe(shared, second, at: 215)
        scheduler.start()
        #expect(first.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(second.events == [.next(225, 1), .next(235, 2), .completed(245)])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(215, 245)])
        #expect(made.value == 2)
    }

    @Test func aSynchronousSourceIsConnectedAfterTheSelectorsSequenceIsSubscribed() {
        let observer = RecordingObserver<Int>()
        _ = Observable.of(1, 2, 3)
            .multicast({ PublishSubject<Int>() }, selector: { shared in Observable.zip(shared, shared) { $0 * $1 } })
            .subscribe(observer)
        #expect(observer.events == [.next(1), .next(4), .next(9), .completed])
    }
}

@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct DeferredTests {
    @Test func factoryRunsAtEachSubscriptionAndItsSequenceIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let calls = Locked<[Int]>([])
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start {
            Observable<Int>.deferred {
                calls.append(scheduler.clock)
                return xs.asObservable()
            }
        }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(calls.value == [200])
    }

    @Test func eachSubscriberGetsAFreshSequence() {
        let count = Locked(0)
        let observable = Observable<Int>.deferred {
            count.increment()
            return .just(count.value)
        }
        #expect(count.value == 0)
        let first = RecordingObserver<Int>()
        let second = RecordingObserver<Int>()
        _ = observable.subscribe(first)
        _ = observable.subscribe(second)
        #expect(first.events == [.next(1), .completed])
        #expect(second.events == [.next(2), .completed])
    }

    @Test func factoryThatThrowsSendsTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.deferred { throw TestError(3) } }
        #expect(res.events == [.error(200, TestError(3))])
    }

    @Test func neverSequenceStaysSubscribedUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { Observable.deferred { xs.asObservable() } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func errorOfTheSequenceIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let res = scheduler.start { Observable.deferred { xs.asObservable() } }
        #expect(res.events == [.next(210, 1), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlyDisposesTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { Observable.deferred { xs.asObservable() } }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    /// Compiles only because the factory is not `@Sendable`: ported RxSwift code captures
    /// non-`Sendable` values such as a data source.
    @Test func factoryMayCaptureNonSendableState() {
        let counter = NonSendableCounter()
        let observable = Observable<Int>.deferred {
            counter.value += 1
            return .just(counter.value)
        }
        #expect(synchronousEvents(observable) == [.next(1), .completed])
        #expect(synchronousEvents(observable) == [.next(2), .completed])
    }
}

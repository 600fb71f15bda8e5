@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct RetryTests {
    @Test func neverSourceStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.retry() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func completingSourceIsSubscribedOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3), .completed(250)])
        let res = scheduler.start { xs.retry() }
        #expect(res.events == [.next(300, 1), .next(350, 2), .next(400, 3), .completed(450)])
        #expect(xs.subscriptions == [Subscription(200, 450)])
    }

    @Test func failingSourceIsResubscribedAtEachErrorUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .error(250, TestError(1))])
        let res = scheduler.start(disposed: 1100) { xs.retry() }
        #expect(
            res.events == [
                .next(300, 1), .next(350, 2), .next(550, 1), .next(600, 2), .next(800, 1), .next(850, 2),
                .next(1050, 1),
            ]
        )
        #expect(
            xs.subscriptions == [
                Subscription(200, 450), Subscription(450, 700), Subscription(700, 950), Subscription(950, 1100),
            ]
        )
    }

    @Test func countedRetryGivesUpWithTheLastErrorAfterThatManySubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry(3) }
        #expect(res.events == [.next(205, 1), .next(225, 1), .next(245, 1), .error(260, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    @Test func countOfOneDoesNotRetry() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry(1) }
        #expect(res.events == [.next(205, 1), .error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func countOfZeroCompletesWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry(0) }
        #expect(res.events == [.completed(200)])
        #expect(xs.subscriptions == [])
    }

    @Test func countedRetryCompletesWhenAnAttemptSucceeds() {
        let attempts = Locked(0)
        let source = Observable<Int>.create { observer in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            observer.onNext(attempt)
            if attempt < 3 { observer.onError(TestError(attempt)) } else { observer.onCompleted() }
            return Disposables.create()
        }
        let observer = RecordingObserver<Int>()
        _ = source.retry(5).subscribe(observer)
        #expect(observer.events == [.next(1), .next(2), .next(3), .completed])
    }

    @Test func disposingWhileRetryingStopsResubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(30, TestError(1))])
        let res = scheduler.start(disposed: 245) { xs.retry() }
        #expect(res.events == [.next(210, 1), .next(240, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 245)])
    }

    @Test func synchronouslyFailingSourceIsRetriedInALoopNotRecursively() {
        let attempts = Locked(0)
        let source = Observable<Int>.create { observer in
            attempts.increment()
            observer.onError(TestError(1))
            return Disposables.create()
        }
        let observer = RecordingObserver<Int>()
        _ = source.retry(20_000).subscribe(observer)
        #expect(observer.events == [.error(TestError(1))])
        #expect(attempts.value == 20_000)
    }

    @Test func neverMoreThanOneAttemptIsLiveAtATime() {
        let live = Locked(0)
        let mostLive = Locked(0)
        let attempts = Locked(0)
        let source = Observable<Int>.create { observer in
            live.increment()
            mostLive.withLock { $0 = max($0, live.value) }
            if attempts.withLock({ count -> Int in
                count += 1
                return count
            }) < 5 {
                observer.onError(TestError(1))
            }
            return Disposables.create { live.withLock { $0 -= 1 } }
        }
        let subscription = source.retry().subscribe()
        #expect(attempts.value == 5)
        #expect(mostLive.value == 1)
        subscription.dispose()
        #expect(live.value == 0)
    }
}

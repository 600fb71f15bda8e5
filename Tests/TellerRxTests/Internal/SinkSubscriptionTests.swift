import Dispatch
import Synchronization
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// Every sink is its own subscription (a `SubscriptionSlot` holding its upstream), so these
/// check what a separate disposer object used to guarantee, on create, map, filter, of/from and
/// just: the upstream subscription is disposed exactly once, whether the sink ends first (a
/// terminal event, even one sent before `subscribe` returns) or the subscriber disposes first,
/// and nothing is delivered after either.
@Suite struct SinkSubscriptionTests {
    @Test func createTerminalEventSentDuringSubscribeDisposesTheReturnedDisposableOnce() {
        let disposals = Locked(0)
        let events = Locked<[Event<Int>]>([])
        let subscription = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create { disposals.increment() }
        }
        .subscribe { event in events.withLock { $0.append(event) } }
        #expect(disposals.value == 1)
        subscription.dispose()
        #expect(disposals.value == 1)
        #expect(events.value == [.next(1), .completed])
    }

    @Test func createDisposingTwiceDisposesTheReturnedDisposableOnce() {
        let disposals = Locked(0)
        let subscription = Observable<Int>.create { _ in
            Disposables.create { disposals.increment() }
        }
        .subscribe()
        #expect(disposals.value == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(disposals.value == 1)
    }

    @Test func createDropsEverythingAfterTheFirstTerminalEvent() {
        expectMisuse(
            "Observable.create sent an element after the sequence ended; it was dropped.",
            "Observable.create sent a second terminal event; it was dropped.",
            "Observable.create sent a second terminal event; it was dropped."
        ) {
            let events = Locked<[Event<Int>]>([])
            _ = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(TestError(1))
                observer.onNext(2)
                observer.onCompleted()
                observer.onError(TestError(2))
                return Disposables.create()
            }
            .subscribe { event in events.withLock { $0.append(event) } }
            #expect(events.value == [.next(1), .error(TestError(1))])
        }
    }

    @Test func disposingAChainReachesTheSourceOnceAndStopsDelivery() {
        let disposals = Locked(0)
        let source = Locked<AnyObserver<Int>?>(nil)
        let received = Locked<[Int]>([])
        let subscription = Observable<Int>.create { observer in
            source.withLock { $0 = observer }
            return Disposables.create { disposals.increment() }
        }
        .map { $0 + 1 }.filter { _ in true }.map { $0 * 10 }
        .subscribe(onNext: { received.append($0) })
        source.value?.onNext(1)
        subscription.dispose()
        source.value?.onNext(2)
        source.value?.on(.next(3))
        subscription.dispose()
        #expect(received.value == [20])
        #expect(disposals.value == 1)
    }

    @Test func aTerminalEventInTheMiddleOfAChainDisposesTheSource() {
        let disposals = Locked(0)
        let events = Locked<[Event<Int>]>([])
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onNext(3)
            return Disposables.create { disposals.increment() }
        }
        .map { value -> Int in
            if value == 2 { throw TestError(2) }
            return value
        }
        .filter { _ in true }
        .subscribe { event in events.withLock { $0.append(event) } }
        #expect(events.value == [.next(1), .error(TestError(2))])
        #expect(disposals.value == 1)
    }

    @Test func filterKeepsOnlyMatchingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.filter { $0 % 2 == 0 } }
        #expect(res.events == [.next(210, 2), .next(230, 4), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func filterNeverSourceSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.filter { _ in true } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func filterForwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(300, TestError(1))])
        let res = scheduler.start { xs.filter { _ in true } }
        #expect(res.events == [.next(210, 2), .error(300, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func filterErrorThrownByPredicateIsForwardedAndSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.filter { value in
                if value == 2 { throw TestError(2) }
                return true
            }
        }
        #expect(res.events == [.next(210, 1), .error(220, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func filterDisposedEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(290, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.filter { _ in true } }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func ofOnTheCurrentThreadSendsEveryElementThenCompletes() {
        let events = Locked<[Event<Int>]>([])
        _ = Observable.of(1, 2, 3).map { $0 * 2 }.subscribe { event in events.withLock { $0.append(event) } }
        #expect(events.value == [.next(2), .next(4), .next(6), .completed])
    }

    @Test func fromOnASchedulerStopsWhenDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) { Observable.from([1, 2, 3, 4, 5], scheduler: scheduler) }
        #expect(res.events == [.next(201, 1), .next(202, 2)])
    }

    @Test func fromOnASchedulerCompletesAfterTheLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from([1, 2], scheduler: scheduler) }
        #expect(res.events == [.next(201, 1), .next(202, 2), .completed(203)])
    }

    @Test func justSendsItsElementThenCompletes() {
        let events = Locked<[Event<Int>]>([])
        _ = Observable.just(5).filter { _ in true }.subscribe { event in events.withLock { $0.append(event) } }
        #expect(events.value == [.next(5), .completed])
    }

    @Test func aTerminalEventRacingWithDisposeDisposesTheSourceExactlyOnce() {
        // An element that loses the race to `onCompleted` is reported; how often depends on the
        // threads, so the reports are only kept off the log.
        let lateElement = "Observable.create sent an element after the sequence ended; it was dropped."
        MisuseCapture(accepting: { $0 == lateElement }).during {
            for _ in 0..<300 { terminalEventRacesWithDispose() }
        }
    }

    private func terminalEventRacesWithDispose() {
        let disposals = Atomic(0)
        let delivered = Atomic(0)
        let source = Locked<AnyObserver<Int>?>(nil)
        let subscription = Observable<Int>.create { observer in
            source.withLock { $0 = observer }
            return Disposables.create { disposals.add(1, ordering: .relaxed) }
        }
        .map { $0 }
        .subscribe(onNext: { _ in delivered.add(1, ordering: .relaxed) })
        let observer = source.value
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            switch index {
            case 0: observer?.onCompleted()
            case 1: subscription.dispose()
            default: observer?.onNext(1)
            }
        }
        #expect(disposals.load(ordering: .relaxed) == 1)
        #expect(delivered.load(ordering: .relaxed) <= 1)
    }
}

/// Leak checks read the process-wide `Resources.total`, so they run serialized and only
/// compare before and after (debug builds count; release builds always read 0). Suites in
/// other files still run in parallel and move the count up or down while they run, so a check
/// passes as soon as one of a few attempts shows no change: a real leak shows in every attempt.
@Suite(.serialized) struct SinkSubscriptionLeakTests {
    /// 0 if any of ten attempts left the count unchanged, else the attempt closest to 0.
    private func smallestLeak(by body: () -> Void) -> Int {
        var attempts: [Int] = []
        for _ in 0..<10 {
            let leaked = resourcesLeaked(by: body)
            if leaked == 0 { return 0 }
            attempts.append(leaked)
        }
        return attempts.min { abs($0) < abs($1) } ?? 0
    }

    @Test func aCompletedChainFreesEverything() {
        let leaked = smallestLeak {
            _ = Observable.of(1, 2, 3).map { $0 }.filter { _ in true }.subscribe(onNext: { _ in })
        }
        #expect(leaked == 0)
    }

    @Test func aDisposedChainFreesEverything() {
        let leaked = smallestLeak {
            let subscription = Observable<Int>.create { _ in Disposables.create() }
                .map { $0 }.filter { _ in true }
                .subscribe(onNext: { _ in }, onDisposed: {})
            subscription.dispose()
        }
        #expect(leaked == 0)
    }

    @Test func aChainEndedByAnErrorFreesEverything() {
        let leaked = smallestLeak {
            _ = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(TestError(1))
                return Disposables.create()
            }
            .map { $0 }
            .subscribe(onNext: { _ in }, onError: { _ in })
        }
        #expect(leaked == 0)
    }
}

import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct SingleTests {
    @Test func createDeliversSuccessAsNextThenCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single<Int>.create { single in
                single(.success(1))
                return Disposables.create()
            }
        }
        #expect(res.events == [.next(200, 1), .completed(200)])
    }

    @Test func createDeliversFailureAsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single<Int>.create { single in
                single(.failure(TestError(1)))
                return Disposables.create()
            }
        }
        #expect(res.events == [.error(200, TestError(1))])
    }

    @Test func createKeepsOnlyTheFirstOutcome() {
        expectMisuse(
            "Single.create sent success(2) after the Single ended; it was dropped.",
            "Single.create sent failure(TellerRxTests.TestError(id: 3)) after the Single ended; it was dropped."
        ) {
            let log = TraitEventLog()
            _ = Single<Int>.create { single in
                single(.success(1))
                single(.success(2))
                single(.failure(TestError(3)))
                return Disposables.create()
            }
            .subscribe { event in log.record(event) }
            #expect(log.events == ["success(1)"])
        }
    }

    @Test func createClosureMayCaptureNonSendableState() throws {
        let counter = NonSendableCounter()
        counter.value = 41
        let single = Single<Int>.create { observer in
            counter.value += 1
            observer(.success(counter.value))
            return Disposables.create()
        }
        #expect(try single.toBlocking().single() == 42)
    }

    @Test func createDisposesItsDisposableWhenTheSingleEnds() {
        let disposed = Locked(0)
        _ = Single<Int>.create { single in
            single(.success(1))
            return Disposables.create { disposed.increment() }
        }
        .subscribe()
        #expect(disposed.value == 1)
    }

    @Test func createDisposesItsDisposableWhenTheSubscriptionIsDisposed() {
        let disposed = Locked(0)
        let received = Locked(0)
        let subscription = Single<Int>.create { _ in
            Disposables.create { disposed.increment() }
        }
        .subscribe(onSuccess: { _ in received.increment() })
        #expect(disposed.value == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(disposed.value == 1)
        #expect(received.value == 0)
    }

    @Test func createRunsOncePerSubscription() {
        let subscriptions = Locked(0)
        let single = Single<Int>.create { observer in
            subscriptions.increment()
            observer(.success(1))
            return Disposables.create()
        }
        _ = single.subscribe()
        _ = single.subscribe()
        #expect(subscriptions.value == 2)
    }

    @Test func outcomeFromAnotherThreadReachesTheSubscriber() async {
        let single = Single<Int>.create { observer in
            DispatchQueue.global().async { observer(.success(7)) }
            return Disposables.create()
        }
        let value = await withCheckedContinuation { continuation in
            _ = single.subscribe(onSuccess: { continuation.resume(returning: $0) })
        }
        #expect(value == 7)
    }

    @Test func subscribeCallsOnSuccessThenOnDisposed() {
        let log = TraitEventLog()
        _ = Single.just(1)
            .subscribe(
                onSuccess: { log.record("success(\($0))") },
                onFailure: { log.record("failure(\($0))") },
                onDisposed: { log.record("disposed") }
            )
        #expect(log.events == ["success(1)", "disposed"])
    }

    @Test func subscribeCallsOnFailureThenOnDisposed() {
        let log = TraitEventLog()
        _ = Single<Int>.error(TestError(2))
            .subscribe(
                onSuccess: { log.record("success(\($0))") },
                onFailure: { log.record("failure(\($0))") },
                onDisposed: { log.record("disposed") }
            )
        #expect(log.events == ["failure(TestError(id: 2))", "disposed"])
    }

    @Test func disposingBeforeTheOutcomeCallsOnlyOnDisposed() {
        let log = TraitEventLog()
        let subscription = Single<Int>.never()
            .subscribe(
                onSuccess: { log.record("success(\($0))") },
                onFailure: { log.record("failure(\($0))") },
                onDisposed: { log.record("disposed") }
            )
        #expect(log.events == [])
        subscription.dispose()
        subscription.dispose()
        #expect(log.events == ["disposed"])
    }

    @available(*, deprecated, message: "exercises the deprecated spelling on purpose")
    @Test func deprecatedOnErrorSpellingStillWorks() {
        let log = TraitEventLog()
        _ = Single<Int>.error(TestError(3)).subscribeWithOnError(log)
        #expect(log.events == ["error(TestError(id: 3))"])
    }

    @Test func subscribeWithEventClosureReceivesResult() {
        let log = TraitEventLog()
        _ = Single.just(5).subscribe { log.record($0) }
        _ = Single<Int>.error(TestError(4)).subscribe { log.record($0) }
        #expect(log.events == ["success(5)", "failure(TestError(id: 4))"])
    }

    @Test func justWithSchedulerSucceedsOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(3, scheduler: scheduler) }
        #expect(res.events == [.next(201, 3), .completed(202)])
    }

    @Test func neverSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.never() }
        #expect(res.events == [])
    }

    @Test func deferredCallsTheFactoryPerSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let calls = Locked(0)
        let single = Single<Int>.deferred {
            calls.increment()
            return .just(calls.value)
        }
        let res = scheduler.start { single }
        #expect(res.events == [.next(200, 1), .completed(200)])
        _ = single.subscribe()
        #expect(calls.value == 2)
    }

    @Test func deferredFactoryErrorIsDelivered() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single<Int>.deferred { throw TestError(5) }
        }
        #expect(res.events == [.error(200, TestError(5))])
    }

    @Test func asMaybeKeepsTheOutcome() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(1).asMaybe() }
        #expect(res.events == [.next(200, 1), .completed(200)])
    }

    @Test func asCompletableDropsTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().asCompletable() }
        #expect(res.events == [.completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func singleIsSendableAndConvertible() {
        let single: any Sendable = Single.just(1)
        #expect(single is Single<Int>)
        let observable: Observable<Int> = Single.just(1).asObservable()
        #expect(observable.toBlockingArray() == [1])
    }
}

extension PrimitiveSequence where Trait == SingleTrait {
    @available(*, deprecated, message: "exercises the deprecated spelling on purpose")
    fileprivate func subscribeWithOnError(_ log: TraitEventLog) -> any Disposable {
        subscribe(onSuccess: { log.record("success(\($0))") }, onError: { log.record("error(\($0))") })
    }
}

extension Observable {
    fileprivate func toBlockingArray() -> [Element]? {
        try? toBlocking(timeout: 5).toArray()
    }
}

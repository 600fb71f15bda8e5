import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// `Single.create` subscribed with `subscribe(onSuccess:onFailure:onDisposed:)`, where the
/// subscriber receives the outcome straight from the create closure, and with Rx observers,
/// which go through a sink: the same grammar, order and disposal either way.
@Suite struct SingleSubscribeTests {
    private func subscribe(_ pending: PendingSingle) -> any Disposable {
        let log = pending.log
        return pending.single.subscribe(
            onSuccess: { log.record("success(\($0))") },
            onFailure: { log.record("failure(\($0))") },
            onDisposed: { log.record("disposed") }
        )
    }

    @Test func laterSuccessCallsOnSuccessThenOnDisposedThenDisposesTheCreateDisposable() {
        let pending = PendingSingle()
        let subscription = subscribe(pending)
        #expect(pending.log.events == [])
        pending.send(.success(1))
        #expect(pending.log.events == ["success(1)", "disposed", "cancelled"])
        subscription.dispose()
        #expect(pending.log.events == ["success(1)", "disposed", "cancelled"])
    }

    @Test func immediateSuccessEndsInTheSameOrder() {
        let log = TraitEventLog()
        _ = Single<Int>.create { single in
            single(.success(1))
            return Disposables.create { log.record("cancelled") }
        }
        .subscribe(onSuccess: { log.record("success(\($0))") }, onDisposed: { log.record("disposed") })
        #expect(log.events == ["success(1)", "disposed", "cancelled"])
    }

    @Test func laterFailureCallsOnFailureThenOnDisposedThenDisposesTheCreateDisposable() {
        let pending = PendingSingle()
        _ = subscribe(pending)
        pending.send(.failure(TestError(1)))
        #expect(pending.log.events == ["failure(TestError(id: 1))", "disposed", "cancelled"])
    }

    @Test func disposingBeforeTheOutcomeCancelsOnceAndDropsTheOutcome() {
        expectMisuse(
            "Single.create sent failure(TellerRxTests.TestError(id: 2)) after the Single ended; it was dropped."
        ) {
            let pending = PendingSingle()
            let subscription = subscribe(pending)
            subscription.dispose()
            #expect(pending.log.events == ["cancelled", "disposed"])
            subscription.dispose()
            pending.send(.success(1))
            pending.send(.failure(TestError(2)))
            #expect(pending.log.events == ["cancelled", "disposed"])
        }
    }

    @Test func onlyTheFirstOutcomeIsDelivered() {
        expectMisuse(
            "Single.create sent success(2) after the Single ended; it was dropped.",
            "Single.create sent failure(TellerRxTests.TestError(id: 3)) after the Single ended; it was dropped."
        ) {
            let pending = PendingSingle()
            _ = subscribe(pending)
            pending.send(.success(1))
            pending.send(.success(2))
            pending.send(.failure(TestError(3)))
            #expect(pending.log.events == ["success(1)", "disposed", "cancelled"])
        }
    }

    @Test func disposingFromInsideOnSuccessEndsTheSubscriptionOnce() {
        let pending = PendingSingle()
        let log = pending.log
        let subscription = Locked<(any Disposable)?>(nil)
        subscription.withLock { stored in
            stored = pending.single.subscribe(
                onSuccess: { element in
                    log.record("success(\(element))")
                    subscription.value?.dispose()
                    log.record("returned")
                },
                onDisposed: { log.record("disposed") }
            )
        }
        pending.send(.success(1))
        #expect(log.events == ["success(1)", "cancelled", "disposed", "returned"])
        subscription.value?.dispose()
        #expect(log.events == ["success(1)", "cancelled", "disposed", "returned"])
    }

    @Test func disposingFromInsideOnDisposedDoesNotRunItAgain() {
        let pending = PendingSingle()
        let log = pending.log
        let subscription = Locked<(any Disposable)?>(nil)
        subscription.withLock { stored in
            stored = pending.single.subscribe(onDisposed: {
                log.record("disposed")
                subscription.value?.dispose()
            })
        }
        pending.send(.success(1))
        #expect(log.events == ["disposed", "cancelled"])
    }

    @Test func theClosuresAreReleasedWhenTheSubscriptionIsDisposedWhileTheCallbackIsKept() {
        let pending = PendingSingle()
        var token: Token? = Token()
        weak let released = token
        let subscription = pending.single.subscribe(onSuccess: { [token] _ in withExtendedLifetime(token) {} })
        token = nil
        #expect(released != nil)
        subscription.dispose()
        #expect(released == nil)
    }

    @Test func theClosuresAreReleasedAfterTheOutcomeWhileTheSubscriptionIsKept() {
        let pending = PendingSingle()
        var token: Token? = Token()
        weak let released = token
        let subscription = pending.single.subscribe(onFailure: { [token] _ in withExtendedLifetime(token) {} })
        token = nil
        pending.send(.failure(TestError(1)))
        #expect(released == nil)
        withExtendedLifetime(subscription) {}
    }

    @Test func eventClosureSpellingReceivesTheLaterOutcome() {
        let pending = PendingSingle()
        let log = pending.log
        _ = pending.single.subscribe { log.record($0) }
        pending.send(.failure(TestError(4)))
        #expect(log.events == ["failure(TestError(id: 4))", "cancelled"])
    }

    @Test func rxObserversGetTheFirstOutcomeAsNextThenCompleted() {
        expectMisuse("Single.create sent success(2) after the Single ended; it was dropped.") {
            let pending = PendingSingle()
            let log = pending.log
            _ = pending.single.asObservable()
                .subscribe(onNext: { log.record("next(\($0))") }, onCompleted: { log.record("completed") })
            pending.send(.success(1))
            pending.send(.success(2))
            #expect(log.events == ["next(1)", "completed", "cancelled"])
        }
    }

    @Test func rxObserversDisposingBeforeTheOutcomeCancelOnceAndDropTheOutcome() {
        let pending = PendingSingle()
        let log = pending.log
        let subscription = pending.single.asObservable().subscribe(onNext: { log.record("next(\($0))") })
        subscription.dispose()
        subscription.dispose()
        pending.send(.success(1))
        #expect(log.events == ["cancelled"])
    }

    @Test func operatorsBetweenCreateAndSubscribeKeepTheOrder() {
        expectMisuse("Single.create sent success(2) after the Single ended; it was dropped.") {
            let pending = PendingSingle()
            let log = pending.log
            _ = pending.single.map { $0 * 10 }
                .subscribe(onSuccess: { log.record("success(\($0))") }, onDisposed: { log.record("disposed") })
            pending.send(.success(1))
            pending.send(.success(2))
            #expect(log.events == ["success(10)", "disposed", "cancelled"])
        }
    }

    @Test func disposingASubscriptionToAnotherSingleDisposesItsSourceAndEndsOnce() {
        let subject = PublishSubject<Int>()
        let log = TraitEventLog()
        let subscription = subject.asSingle()
            .subscribe(onSuccess: { log.record("success(\($0))") }, onDisposed: { log.record("disposed") })
        #expect(subject.hasObservers)
        subscription.dispose()
        subscription.dispose()
        #expect(!subject.hasObservers)
        subject.onNext(1)
        subject.onCompleted()
        #expect(log.events == ["disposed"])
    }

    @Test func subscribeOnAndObserveOnDeliverTheCreatedOutcomeOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single<Int>.create { single in
                single(.success(1))
                return Disposables.create()
            }
            .subscribe(on: scheduler)
            .observe(on: scheduler)
        }
        // As in RxSwift, observe(on:) delivers the completion in its own step after the success.
        #expect(res.events == [.next(202, 1), .completed(203)])
    }

    @Test func subscribeOnRunsTheCreateClosureOnTheSchedulerForClosureSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let pending = PendingSingle()
        let log = pending.log
        _ = pending.single.subscribe(on: scheduler)
            .subscribe(onSuccess: { log.record("success(\($0))") }, onDisposed: { log.record("disposed") })
        pending.send(.success(1))
        #expect(log.events == [])
        scheduler.start()
        pending.send(.success(1))
        #expect(log.events == ["success(1)", "disposed", "cancelled"])
    }

    @Test func createdSinglesFreeEverything() {
        #expect(
            !leaksOnEveryTry {
                let pending = PendingSingle()
                _ = pending.single.subscribe(onSuccess: { _ in })
                pending.send(.success(1))
            }
        )
        #expect(
            !leaksOnEveryTry {
                let pending = PendingSingle()
                pending.single.subscribe(onSuccess: { _ in }, onDisposed: {}).dispose()
                pending.send(.success(1))
            }
        )
        // The failure nobody handles is reported (with a call stack if a hooks test records one).
        let unhandled = "Unhandled error happened: \(TestError(1))"
        let reports = MisuseCapture(accepting: { $0.hasPrefix(unhandled) })
        reports.during {
            #expect(
                !leaksOnEveryTry {
                    let pending = PendingSingle()
                    _ = pending.single.asObservable().subscribe()
                    pending.send(.failure(TestError(1)))
                    pending.forget()
                }
            )
        }
        #expect(reports.messages.isEmpty != MisuseCapture.isReporting)
    }
}

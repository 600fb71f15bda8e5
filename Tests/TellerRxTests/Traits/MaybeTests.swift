@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct MaybeTests {
    @Test func createDeliversSuccessAsNextThenCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Maybe<Int>.create { maybe in
                maybe(.success(1))
                return Disposables.create()
            }
        }
        #expect(res.events == [.next(200, 1), .completed(200)])
    }

    @Test func createDeliversCompletedAndError() {
        let scheduler = TestScheduler(initialClock: 0)
        let completed = scheduler.start(created: 100, subscribed: 200, disposed: 1000) {
            Maybe<Int>.create { maybe in
                maybe(.completed)
                return Disposables.create()
            }
        }
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Maybe<Int>.create { maybe in
                maybe(.error(TestError(1)))
                return Disposables.create()
            }
        }
        #expect(completed.events == [.completed(200)])
        #expect(failed.events == [.error(1200, TestError(1))])
    }

    @Test func createKeepsOnlyTheFirstOutcome() {
        expectMisuse("Maybe.create sent success(2) after the Maybe ended; it was dropped.") {
            let log = TraitEventLog()
            _ = Maybe<Int>.create { maybe in
                maybe(.completed)
                maybe(.success(2))
                return Disposables.create()
            }
            .subscribe { event in log.record(event) }
            #expect(log.events == ["completed"])
        }
    }

    @Test func createClosureMayCaptureNonSendableState() throws {
        let counter = NonSendableCounter()
        let maybe = Maybe<Int>.create { observer in
            counter.value += 1
            observer(.success(counter.value))
            return Disposables.create()
        }
        #expect(try maybe.toBlocking().first() == 1)
    }

    @Test func subscribeCallsExactlyOneHandlerThenOnDisposed() {
        let log = TraitEventLog()
        let maybes: [Maybe<Int>] = [.just(1), .empty(), .error(TestError(2))]
        for maybe in maybes {
            _ = maybe.subscribe(
                onSuccess: { log.record("success(\($0))") },
                onError: { log.record("error(\($0))") },
                onCompleted: { log.record("completed") },
                onDisposed: { log.record("disposed") }
            )
        }
        #expect(
            log.events == [
                "success(1)", "disposed", "completed", "disposed", "error(TestError(id: 2))", "disposed",
            ]
        )
    }

    @Test func disposingBeforeTheOutcomeCallsOnlyOnDisposed() {
        let log = TraitEventLog()
        let subscription = Maybe<Int>.never()
            .subscribe(onSuccess: { log.record("success(\($0))") }, onDisposed: { log.record("disposed") })
        subscription.dispose()
        #expect(log.events == ["disposed"])
    }

    @Test func subscribeWithEventClosureReceivesEachKindOfOutcome() {
        let log = TraitEventLog()
        _ = Maybe.just(5).subscribe { log.record($0) }
        _ = Maybe<Int>.empty().subscribe { log.record($0) }
        _ = Maybe<Int>.error(TestError(3)).subscribe { log.record($0) }
        #expect(log.events == ["success(5)", "completed", "error(TestError(id: 3))"])
    }

    @Test func justWithSchedulerSucceedsOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Maybe.just(3, scheduler: scheduler) }
        #expect(res.events == [.next(201, 3), .completed(202)])
    }

    @Test func neverSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Maybe<Int>.never() }
        #expect(res.events == [])
    }

    @Test func deferredCallsTheFactoryPerSubscriber() {
        let calls = Locked(0)
        let maybe = Maybe<Int>.deferred {
            calls.increment()
            return .empty()
        }
        _ = maybe.subscribe()
        _ = maybe.subscribe()
        #expect(calls.value == 2)
    }
}

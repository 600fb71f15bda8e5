import TellerRx
import TellerTesting
import Testing

@Suite struct CompletableTests {
    @Test func createDeliversCompletedAndError() {
        let scheduler = TestScheduler(initialClock: 0)
        let completed = scheduler.start(created: 100, subscribed: 200, disposed: 1000) {
            Completable.create { completable in
                completable(.completed)
                return Disposables.create()
            }
        }
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Completable.create { completable in
                completable(.error(TestError(1)))
                return Disposables.create()
            }
        }
        #expect(completed.events == [.completed(200)])
        #expect(failed.events == [.error(1200, TestError(1))])
    }

    @Test func createKeepsOnlyTheFirstOutcome() {
        expectMisuse("Completable.create sent completed after the Completable ended; it was dropped.") {
            let log = TraitEventLog()
            _ = Completable.create { completable in
                completable(.error(TestError(1)))
                completable(.completed)
                return Disposables.create()
            }
            .subscribe { event in log.record(event) }
            #expect(log.events == ["error(TestError(id: 1))"])
        }
    }

    @Test func createClosureMayCaptureNonSendableState() throws {
        let counter = NonSendableCounter()
        let completable = Completable.create { observer in
            counter.value += 1
            observer(.completed)
            return Disposables.create()
        }
        #expect(try completable.toBlocking().toArray().isEmpty)
        #expect(counter.value == 1)
    }

    @Test func subscribeCallsOneHandlerThenOnDisposed() {
        let log = TraitEventLog()
        for completable in [Completable.empty(), .error(TestError(2))] {
            _ = completable.subscribe(
                onCompleted: { log.record("completed") },
                onError: { log.record("error(\($0))") },
                onDisposed: { log.record("disposed") }
            )
        }
        #expect(log.events == ["completed", "disposed", "error(TestError(id: 2))", "disposed"])
    }

    @Test func disposingBeforeTheOutcomeCallsOnlyOnDisposed() {
        let log = TraitEventLog()
        let subscription = Completable.never()
            .subscribe(onCompleted: { log.record("completed") }, onDisposed: { log.record("disposed") })
        subscription.dispose()
        subscription.dispose()
        #expect(log.events == ["disposed"])
    }

    @Test func subscribeWithEventClosureReceivesEachKindOfOutcome() {
        let log = TraitEventLog()
        _ = Completable.empty().subscribe { log.record($0) }
        _ = Completable.error(TestError(3)).subscribe { log.record($0) }
        #expect(log.events == ["completed", "error(TestError(id: 3))"])
    }

    @Test func neverSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Completable.never() }
        #expect(res.events == [])
    }

    @Test func deferredFactoryErrorIsDelivered() {
        let log = TraitEventLog()
        _ = Completable.deferred { throw TestError(4) }.subscribe { log.record($0) }
        #expect(log.events == ["error(TestError(id: 4))"])
    }
}

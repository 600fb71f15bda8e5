import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// A single that fails with `TestError(attempt)` on its first `failures` subscriptions, then
/// succeeds with the attempt number; counts its subscriptions.
private func flakySingle(failures: Int, attempts: Locked<Int>) -> Single<Int> {
    Single.create { single in
        let attempt = attempts.withLock { count -> Int in
            count += 1
            return count
        }
        single(attempt > failures ? .success(attempt) : .failure(TestError(attempt)))
        return Disposables.create()
    }
}

@Suite struct TraitErrorTests {
    // MARK: catch

    @Test func catchContinuesWithTheHandlersSingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError(1))])
        let ys = scheduler.createColdObservable([.next(5, 2), .completed(5)])
        let caught = Locked<[Int]>([])
        let res = scheduler.start { () -> Single<Int> in
            xs.asSingle().catch { error in
                caught.append((error as? TestError)?.id ?? -1)
                return ys.asSingle()
            }
        }
        #expect(res.events == [.next(215, 2), .completed(215)])
        #expect(caught.value == [1])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(ys.subscriptions == [Subscription(210, 215)])
    }

    @Test func catchLetsASuccessThroughWithoutCallingTheHandler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { () -> Maybe<Int> in
            xs.asMaybe().catch { _ in
                Issue.record("handler called")
                return .empty()
            }
        }
        #expect(res.events == [.next(210, 1), .completed(210)])
    }

    @Test func catchHandlerThatThrowsFailsTheTrait() {
        let res = TestScheduler(initialClock: 0).start { () -> Completable in
            Completable.error(TestError(1)).catch { _ in throw TestError(2) }
        }
        #expect(res.events == [.error(200, TestError(2))])
    }

    @Test func catchOfACompletableSwitchesToTheFallback() {
        let res = TestScheduler(initialClock: 0).start { () -> Completable in
            Completable.error(TestError(1)).catch { _ in .empty() }
        }
        #expect(res.events == [.completed(200)])
    }

    @Test func catchDisposedBeforeTheErrorNeverCallsTheHandler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.error(100, TestError(1))])
        let res = scheduler.start(disposed: 250) { () -> Single<Int> in
            xs.asSingle().catch { _ in
                Issue.record("handler called")
                return .just(0)
            }
        }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    // MARK: catchAndReturn

    @Test func singleCatchAndReturnSucceedsWithTheElementOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError(1))])
        let res = scheduler.start { xs.asSingle().catchAndReturn(7) }
        #expect(res.events == [.next(210, 7), .completed(210)])
    }

    @Test func maybeCatchAndReturnKeepsAnEmptyCompletion() {
        let empty = TestScheduler(initialClock: 0).start { Maybe<Int>.empty().catchAndReturn(7) }
        let failed = TestScheduler(initialClock: 0).start { Maybe<Int>.error(TestError(1)).catchAndReturn(7) }
        let succeeded = TestScheduler(initialClock: 0).start { Maybe.just(1).catchAndReturn(7) }
        #expect(empty.events == [.completed(200)])
        #expect(failed.events == [.next(200, 7), .completed(200)])
        #expect(succeeded.events == [.next(200, 1), .completed(200)])
    }

    // MARK: retry

    @Test func retryResubscribesUntilASuccess() throws {
        let attempts = Locked(0)
        let value = try flakySingle(failures: 3, attempts: attempts).retry().toBlocking().single()
        #expect(value == 4)
        #expect(attempts.value == 4)
    }

    @Test func retryCountLimitsTheAttemptsAndDeliversTheLastError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError(1))])
        let res = scheduler.start { () -> Single<Int> in xs.asSingle().retry(3) }
        #expect(res.events == [.error(230, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])
    }

    @Test func retryCountStopsAtTheFirstSuccess() {
        let attempts = Locked(0)
        let log = TraitEventLog()
        _ = flakySingle(failures: 1, attempts: attempts).retry(5).subscribe { log.record($0) }
        #expect(log.events == ["success(2)"])
        #expect(attempts.value == 2)
    }

    @Test func retryZeroCompletesAMaybeWithoutSubscribing() {
        let attempts = Locked(0)
        let maybe = flakySingle(failures: 0, attempts: attempts).asMaybe().retry(0)
        #expect(synchronousEvents(maybe.asObservable()) == [.completed])
        #expect(attempts.value == 0)
    }

    @Test func retryDisposedEarlyStopsResubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Never>>.error(10, TestError(1))])
        let res = scheduler.start(disposed: 225) { () -> Completable in xs.asCompletable().retry() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 210), Subscription(210, 220), Subscription(220, 225)])
    }

    // MARK: retry(when:)

    @Test func retryWhenResubscribesWhenTheTriggerSendsAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError(1))])
        let res = scheduler.start { () -> Single<Int> in
            xs.asSingle()
                .retry(when: { (errors: Observable<TestError>) in
                    errors
                        .scan(0) { attempts, error in
                            guard attempts < 2 else { throw error }
                            return attempts + 1
                        }
                        .flatMap { _ in Observable<Int>.timer(.seconds(5), scheduler: scheduler) }
                })
        }
        #expect(res.events == [.error(240, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210), Subscription(215, 225), Subscription(230, 240)])
    }

    @Test func retryWhenWithAnyErrorSucceedsOnALaterAttempt() throws {
        let attempts = Locked(0)
        let value = try flakySingle(failures: 2, attempts: attempts)
            .retry(when: { (errors: Observable<any Error>) in errors })
            .toBlocking()
            .single()
        #expect(value == 3)
    }

    @Test func retryWhenOfAnotherErrorTypeFailsAtOnce() {
        struct OtherError: Error {}
        let attempts = Locked(0)
        let log = TraitEventLog()
        _ = flakySingle(failures: 5, attempts: attempts)
            .retry(when: { (errors: Observable<OtherError>) in errors })
            .subscribe { log.record($0) }
        #expect(log.events == ["failure(TestError(id: 1))"])
        #expect(attempts.value == 1)
    }

    @Test func retryWhenTriggerCompletingCompletesAMaybe() {
        let attempts = Locked(0)
        let maybe = flakySingle(failures: 5, attempts: attempts)
            .asMaybe()
            .retry(when: { (errors: Observable<any Error>) in errors.take(1) })
        #expect(synchronousEvents(maybe.asObservable()) == [.completed])
        #expect(attempts.value == 2)
    }
}

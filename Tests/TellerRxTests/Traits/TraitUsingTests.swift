@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct TraitUsingTests {
    @Test func resourceLivesUntilTheSingleSucceeds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let resource = BooleanDisposable()
        let disposedAt = Locked<[Int]>([])
        let res = scheduler.start { () -> Single<Int> in
            Single.using(
                { () -> BooleanDisposable in resource },
                primitiveSequenceFactory: { _ in
                    xs.asSingle().do(onDispose: { disposedAt.append(scheduler.clock) })
                }
            )
        }
        #expect(res.events == [.next(210, 1), .completed(210)])
        #expect(resource.isDisposed)
        #expect(disposedAt.value == [210])
    }

    @Test func resourceIsDisposedWhenTheSubscriptionIsDisposed() {
        let resource = BooleanDisposable()
        let subscription = Completable.using({ resource }, primitiveSequenceFactory: { _ in .never() }).subscribe()
        #expect(!resource.isDisposed)
        subscription.dispose()
        #expect(resource.isDisposed)
    }

    @Test func factoryErrorsFailTheTrait() {
        let resource = BooleanDisposable()
        let failedResource = Maybe<Int>.using(
            { () -> BooleanDisposable in throw TestError(1) },
            primitiveSequenceFactory: { _ in .just(1) }
        )
        let failedSequence = Maybe<Int>.using({ resource }, primitiveSequenceFactory: { _ in throw TestError(2) })
        #expect(synchronousEvents(failedResource.asObservable()) == [.error(TestError(1))])
        #expect(synchronousEvents(failedSequence.asObservable()) == [.error(TestError(2))])
        #expect(resource.isDisposed)
    }

    /// Compiles only because the factories are not `@Sendable`, as for `create`.
    @Test func factoriesMayCaptureNonSendableState() throws {
        let counter = NonSendableCounter()
        let single = Single<Int>.using(
            { () -> BooleanDisposable in
                counter.value += 1
                return BooleanDisposable()
            },
            primitiveSequenceFactory: { _ in .just(counter.value) }
        )
        #expect(try single.toBlocking().single() == 1)
    }

    @Test func deferredMakesANewTraitForEachSubscriber() {
        let counter = NonSendableCounter()
        let single = Single<Int>.deferred {
            counter.value += 1
            return .just(counter.value)
        }
        #expect(counter.value == 0)
        #expect(synchronousEvents(single.asObservable()) == [.next(1), .completed])
        #expect(synchronousEvents(single.asObservable()) == [.next(2), .completed])
        let failing = Completable.deferred { throw TestError(3) }
        #expect(synchronousEvents(failing.asObservable()) == [.error(TestError(3))])
    }
}

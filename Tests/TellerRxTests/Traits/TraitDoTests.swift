@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct TraitDoTests {
    @Test func singleDoRunsTheSuccessHandlersAroundDeliveryInOrder() {
        let log = Locked<[String]>([])
        _ = Single.just(1)
            .do(
                onSuccess: { element in log.withLock { $0.append("onSuccess \(element)") } },
                afterSuccess: { element in log.withLock { $0.append("afterSuccess \(element)") } },
                onError: { _ in log.withLock { $0.append("onError") } },
                onSubscribe: { log.withLock { $0.append("onSubscribe") } },
                onSubscribed: { log.withLock { $0.append("onSubscribed") } },
                onDispose: { log.withLock { $0.append("onDispose") } }
            )
            .subscribe(onSuccess: { element in log.withLock { $0.append("delivered \(element)") } })
        // A synchronous single has ended before `subscribe` returns; its subscription is
        // disposed once `subscribe` hands it over, so `onDispose` follows `onSubscribed`.
        #expect(
            log.value == [
                "onSubscribe", "onSuccess 1", "delivered 1", "afterSuccess 1", "onSubscribed", "onDispose",
            ]
        )
    }

    @Test func singleDoRunsTheErrorHandlersAroundDelivery() {
        let log = Locked<[String]>([])
        _ = Single<Int>.error(TestError(1))
            .do(
                onSuccess: { _ in log.withLock { $0.append("onSuccess") } },
                onError: { error in log.withLock { $0.append("onError \(error)") } },
                afterError: { _ in log.withLock { $0.append("afterError") } }
            )
            .subscribe(onFailure: { _ in log.withLock { $0.append("delivered") } })
        #expect(log.value == ["onError TestError(id: 1)", "delivered", "afterError"])
    }

    @Test func singleDoOnSuccessThatThrowsFailsTheSingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { () -> Single<Int> in
            xs.asSingle().do(onSuccess: { _ in throw TestError(2) })
        }
        #expect(res.events == [.error(210, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func singleDoOnDisposeRunsWhenDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposedAt = Locked<[Int]>([])
        let xs = scheduler.createColdObservable([.next(100, 1), .completed(100)])
        let res = scheduler.start(disposed: 250) { () -> Single<Int> in
            xs.asSingle().do(onDispose: { disposedAt.append(scheduler.clock) })
        }
        #expect(res.events == [])
        #expect(disposedAt.value == [250])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func maybeDoSeesTheElementThenTheCompletion() {
        let log = Locked<[String]>([])
        let maybes: [Maybe<Int>] = [.just(1), .empty()]
        for maybe in maybes {
            _ = maybe.do(
                onNext: { element in log.withLock { $0.append("onNext \(element)") } },
                afterNext: { element in log.withLock { $0.append("afterNext \(element)") } },
                onCompleted: { log.withLock { $0.append("onCompleted") } },
                afterCompleted: { log.withLock { $0.append("afterCompleted") } },
                onDispose: { log.withLock { $0.append("onDispose") } }
            )
            .subscribe(
                onSuccess: { _ in log.withLock { $0.append("success") } },
                onCompleted: { log.withLock { $0.append("completed") } }
            )
        }
        #expect(
            log.value == [
                "onNext 1", "success", "afterNext 1", "onCompleted", "afterCompleted", "onDispose",
                "onCompleted", "completed", "afterCompleted", "onDispose",
            ]
        )
    }

    @Test func maybeDoOnErrorThatThrowsReplacesTheError() {
        let res = TestScheduler(initialClock: 0).start { () -> Maybe<Int> in
            Maybe.error(TestError(1)).do(onError: { _ in throw TestError(2) })
        }
        #expect(res.events == [.error(200, TestError(2))])
    }

    @Test func completableDoRunsItsHandlers() {
        let log = Locked<[String]>([])
        let completables: [Completable] = [.empty(), .error(TestError(3))]
        for completable in completables {
            _ = completable.do(
                onError: { error in log.withLock { $0.append("onError \(error)") } },
                afterError: { _ in log.withLock { $0.append("afterError") } },
                onCompleted: { log.withLock { $0.append("onCompleted") } },
                afterCompleted: { log.withLock { $0.append("afterCompleted") } },
                onSubscribe: { log.withLock { $0.append("onSubscribe") } }
            )
            .subscribe(
                onCompleted: { log.withLock { $0.append("completed") } },
                onError: { _ in log.withLock { $0.append("failed") } }
            )
        }
        #expect(
            log.value == [
                "onSubscribe", "onCompleted", "completed", "afterCompleted",
                "onSubscribe", "onError TestError(id: 3)", "failed", "afterError",
            ]
        )
    }

    @Test func completableDoOnCompletedThatThrowsFailsIt() {
        let res = TestScheduler(initialClock: 0).start { () -> Completable in
            Completable.empty().do(onCompleted: { throw TestError(4) })
        }
        #expect(res.events == [.error(200, TestError(4))])
    }

    @Test func debugPassesTheOutcomeThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { () -> Single<Int> in xs.asSingle().debug("trait debug test") }
        #expect(res.events == [.next(210, 1), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }
}

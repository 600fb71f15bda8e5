@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct TraitFlatMapTests {
    @Test func singleFlatMapRunsTheInnerSingleAfterTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(220)])
        let ys = scheduler.createColdObservable([.next(30, "a"), .completed(30)])
        let res = scheduler.start { xs.asSingle().flatMap { _ in ys.asSingle() } }
        #expect(res.events == [.next(250, "a"), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(220, 250)])
    }

    @Test func selectorSeesTheElement() {
        let log = TraitEventLog()
        _ = Single.just(2).flatMap { .just($0 * 5) }.subscribe { log.record($0) }
        #expect(log.events == ["success(10)"])
    }

    @Test func sourceErrorSkipsTheSelector() {
        let calls = Locked(0)
        let log = TraitEventLog()
        _ = Single<Int>.error(TestError(1))
            .flatMap { value -> Single<Int> in
                calls.increment()
                return .just(value)
            }
            .subscribe { log.record($0) }
        #expect(calls.value == 0)
        #expect(log.events == ["failure(TestError(id: 1))"])
    }

    @Test func innerErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(220)])
        let ys = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError(2))])
        let res = scheduler.start { xs.asSingle().flatMap { _ in ys.asSingle() } }
        #expect(res.events == [.error(230, TestError(2))])
        #expect(ys.subscriptions == [Subscription(220, 230)])
    }

    @Test func selectorErrorIsForwarded() {
        let log = TraitEventLog()
        _ = Single.just(1).flatMap { _ -> Single<Int> in throw TestError(3) }.subscribe { log.record($0) }
        #expect(log.events == ["failure(TestError(id: 3))"])
    }

    @Test func neverSourceAndNeverInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(220)])
        let res = scheduler.start { xs.asSingle().flatMap { _ in Single<Int>.never() } }
        #expect(res.events == [])
        let silent = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            Single<Int>.never().flatMap { Single.just($0) }
        }
        #expect(silent.events == [])
    }

    @Test func disposingDuringTheInnerSingleDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(220)])
        let ys = scheduler.createColdObservable([.next(100, 1), .completed(100)])
        let res = scheduler.start(disposed: 250) { xs.asSingle().flatMap { _ in ys.asSingle() } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(220, 250)])
    }

    @Test func disposingBeforeTheElementDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(310, 2), .completed(320)])
        let res = scheduler.start(disposed: 250) { xs.asSingle().flatMap { Single.just($0) } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func flatMapMaybeAndFlatMapCompletableTakeTheInnerOutcome() {
        let log = TraitEventLog()
        _ = Single.just(1).flatMapMaybe { _ in Maybe<Int>.empty() }.subscribe { log.record($0) }
        _ = Single.just(1).flatMapMaybe { Maybe.just($0 + 1) }.subscribe { log.record($0) }
        _ = Single.just(1).flatMapCompletable { _ in Completable.empty() }.subscribe { log.record($0) }
        _ = Single.just(1).flatMapCompletable { _ in Completable.error(TestError(4)) }.subscribe { log.record($0) }
        #expect(log.events == ["completed", "success(2)", "completed", "error(TestError(id: 4))"])
    }

    @Test func maybeFlatMapCompletesEmptyWhenTheSourceIs() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(230)])
        let res = scheduler.start { xs.asMaybe().flatMap { Maybe.just($0) } }
        #expect(res.events == [.completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func maybeFlatMapRunsTheInnerMaybe() {
        let log = TraitEventLog()
        _ = Maybe.just(3).flatMap { Maybe.just($0 * 2) }.subscribe { log.record($0) }
        _ = Maybe.just(3).flatMap { _ in Maybe<Int>.empty() }.subscribe { log.record($0) }
        #expect(log.events == ["success(6)", "completed"])
    }

    @Test func innerSingleOnAnotherThreadDeliversThere() throws {
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "flatMap-inner")
        let value = try Single.just(1)
            .flatMap { Single.just($0 + 1, scheduler: queue) }
            .toBlocking(timeout: 5)
            .single()
        #expect(value == 2)
    }
}

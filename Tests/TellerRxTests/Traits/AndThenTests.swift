import TellerRx
import TellerTesting
import Testing

@Suite struct AndThenTests {
    @Test func singleRunsAfterTheCompletableCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(230, Never.self)])
        let ys = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asCompletable().andThen(ys.asSingle()) }
        #expect(res.events == [.next(240, 1), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 240)])
    }

    @Test func completableErrorSkipsTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(230, TestError(1), Never.self)])
        let ys = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asCompletable().andThen(ys.asSingle()) }
        #expect(res.events == [.error(230, TestError(1))])
        #expect(ys.subscriptions == [])
    }

    @Test func secondErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(230, Never.self)])
        let ys = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError(2))])
        let res = scheduler.start { xs.asCompletable().andThen(ys.asObservable()) }
        #expect(res.events == [.error(240, TestError(2))])
        #expect(ys.subscriptions == [Subscription(230, 240)])
    }

    @Test func neverCompletableNeverSubscribesTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { Completable.never().andThen(ys.asObservable()) }
        #expect(res.events == [])
        #expect(ys.subscriptions == [])
    }

    @Test func disposingDuringTheFirstDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(400, Never.self)])
        let ys = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start(disposed: 300) { xs.asCompletable().andThen(ys.asObservable()) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [])
    }

    @Test func disposingDuringTheSecondDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(230, Never.self)])
        let ys = scheduler.createColdObservable([.next(10, 1), .next(200, 2), .completed(300)])
        let res = scheduler.start(disposed: 300) { xs.asCompletable().andThen(ys.asObservable()) }
        #expect(res.events == [.next(240, 1)])
        #expect(ys.subscriptions == [Subscription(230, 300)])
    }

    @Test func observableElementsAllPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(230, Never.self)])
        let ys = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start { xs.asCompletable().andThen(ys.asObservable()) }
        #expect(res.events == [.next(240, 1), .next(250, 2), .completed(260)])
    }

    @Test func synchronousCompletableThenSynchronousSecond() {
        let log = TraitEventLog()
        _ = Completable.empty().andThen(Single.just(1)).subscribe { log.record($0) }
        _ = Completable.empty().andThen(Maybe<Int>.empty()).subscribe { log.record($0) }
        _ = Completable.empty().andThen(Completable.empty()).subscribe { log.record($0) }
        _ = Completable.empty().andThen(Completable.error(TestError(3))).subscribe { log.record($0) }
        #expect(log.events == ["success(1)", "completed", "completed", "error(TestError(id: 3))"])
    }

    @Test func chainsRunInOrder() {
        let order = TraitEventLog()
        func step(_ name: String) -> Completable {
            Completable.create { completable in
                order.record(name)
                completable(.completed)
                return Disposables.create()
            }
        }
        _ = step("a").andThen(step("b")).andThen(step("c")).subscribe()
        #expect(order.events == ["a", "b", "c"])
    }
}

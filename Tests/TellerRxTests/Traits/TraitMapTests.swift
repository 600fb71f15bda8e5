import TellerRx
import TellerTesting
import Testing

@Suite struct TraitMapTests {
    @Test func singleMapTransformsTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
        let res = scheduler.start { xs.asSingle().map { $0 * 10 } }
        #expect(res.events == [.next(250, 20), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func singleMapForwardsErrorsAndTransformErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([Recorded<Event<Int>>.error(210, TestError(1))])
        let res = scheduler.start { failing.asSingle().map { $0 } }
        #expect(res.events == [.error(210, TestError(1))])
        let log = TraitEventLog()
        _ = Single.just(1).map { _ -> Int in throw TestError(2) }.subscribe { log.record($0) }
        #expect(log.events == ["failure(TestError(id: 2))"])
    }

    @Test func singleMapNeverAndEarlyDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(500)])
        let res = scheduler.start(disposed: 300) { xs.asSingle().map { $0 + 1 } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func singleCompactMapKeepsANonNilResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
        let res = scheduler.start { xs.asSingle().compactMap { $0 > 1 ? "\($0)" : nil } }
        #expect(res.events == [.next(250, "2"), .completed(250)])
    }

    @Test func singleCompactMapOfNilCompletesEmpty() {
        let log = TraitEventLog()
        _ = Single.just(1).compactMap { _ -> Int? in nil }.subscribe { log.record($0) }
        #expect(log.events == ["completed"])
    }

    @Test func compactMapForwardsErrorsAndTransformErrors() {
        let log = TraitEventLog()
        _ = Single<Int>.error(TestError(1)).compactMap { $0 }.subscribe { log.record($0) }
        _ = Single.just(1).compactMap { _ -> Int? in throw TestError(2) }.subscribe { log.record($0) }
        _ = Maybe<Int>.empty().compactMap { $0 }.subscribe { log.record($0) }
        #expect(log.events == ["error(TestError(id: 1))", "error(TestError(id: 2))", "completed"])
    }

    @Test func compactMapEarlyDisposeReachesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(500)])
        let res = scheduler.start(disposed: 300) { xs.asMaybe().compactMap { $0 } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func maybeMapAndCompactMapTransformOrPassEmptiness() {
        let log = TraitEventLog()
        _ = Maybe.just(2).map { $0 * 3 }.subscribe { log.record($0) }
        _ = Maybe<Int>.empty().map { $0 * 3 }.subscribe { log.record($0) }
        _ = Maybe.just(2).compactMap { $0 == 2 ? nil : $0 }.subscribe { log.record($0) }
        _ = Maybe.just(4).compactMap { $0 == 2 ? nil : $0 }.subscribe { log.record($0) }
        #expect(log.events == ["success(6)", "completed", "completed", "success(4)"])
    }

    @Test func filterTurnsASingleIntoAMaybe() {
        let log = TraitEventLog()
        _ = Single.just(1).filter { $0 > 1 }.subscribe { log.record($0) }
        _ = Single.just(2).filter { $0 > 1 }.subscribe { log.record($0) }
        _ = Maybe.just(2).filter { $0 > 2 }.subscribe { log.record($0) }
        #expect(log.events == ["completed", "success(2)", "completed"])
    }
}

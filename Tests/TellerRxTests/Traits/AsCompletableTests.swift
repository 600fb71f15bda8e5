import TellerRx
import TellerTesting
import Testing

/// `asCompletable()` exists where RxSwift 6 has it: on observables of `Never` and on `Single`.
@Suite struct AsCompletableTests {
    @Test func coldObservableOfOnlyATerminalEventInfersNever() {
        // With an `asCompletable()` for every element type this was ambiguous: nothing says
        // what `Element` is. RxSwift's tests write it this way.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.completed(20)]).asCompletable()
        let res = scheduler.start { xs }
        #expect(res.events == [.completed(220)])
    }

    @Test func coldObservableErrorPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(20, TestError(1))]).asCompletable()
        let res = scheduler.start { xs }
        #expect(res.events == [.error(220, TestError(1))])
    }

    @Test func observableOfOtherElementsGoesThroughIgnoreElements() {
        let ignored: Observable<Never> = Observable.of(1, 2).ignoreElements()
        let completable: Completable = ignored.asCompletable()
        #expect(synchronousEvents(completable.asObservable()) == [.completed])
    }

    @Test func singleConvertsByDroppingItsElement() {
        #expect(synchronousEvents(Single.just(1).asCompletable().asObservable()) == [.completed])
        #expect(
            synchronousEvents(Single<Int>.error(TestError(2)).asCompletable().asObservable()) == [.error(TestError(2))]
        )
    }

    @Test func disposingEarlyDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(300, Never.self)])
        let res = scheduler.start(disposed: 250) { xs.asCompletable() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}

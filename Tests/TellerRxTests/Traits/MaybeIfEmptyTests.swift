import TellerRx
import TellerTesting
import Testing

@Suite struct MaybeIfEmptyTests {
    @Test func defaultReplacesAnEmptyCompletionAndMakesASingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.completed(10)])
        let res = scheduler.start { () -> Single<Int> in xs.asMaybe().ifEmpty(default: 5) }
        #expect(res.events == [.next(210, 5), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func defaultKeepsTheElementAndTheError() {
        let element = TestScheduler(initialClock: 0).start { Maybe.just(1).ifEmpty(default: 5) }
        let error = TestScheduler(initialClock: 0).start { Maybe<Int>.error(TestError(1)).ifEmpty(default: 5) }
        #expect(element.events == [.next(200, 1), .completed(200)])
        #expect(error.events == [.error(200, TestError(1))])
    }

    @Test func defaultOfANeverMaybeWaitsUntilDisposed() {
        let res = TestScheduler(initialClock: 0).start { Maybe<Int>.never().ifEmpty(default: 5) }
        #expect(res.events == [])
    }

    @Test func switchToAMaybeTakesItsOutcomeWhenEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.completed(10)])
        let ys = scheduler.createColdObservable([Recorded<Event<Int>>.completed(5)])
        let res = scheduler.start { () -> Maybe<Int> in xs.asMaybe().ifEmpty(switchTo: ys.asMaybe()) }
        #expect(res.events == [.completed(215)])
        #expect(ys.subscriptions == [Subscription(210, 215)])
    }

    @Test func switchToASingleMakesASingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.completed(10)])
        let ys = scheduler.createColdObservable([.next(5, 7), .completed(5)])
        let res = scheduler.start { () -> Single<Int> in xs.asMaybe().ifEmpty(switchTo: ys.asSingle()) }
        #expect(res.events == [.next(215, 7), .completed(215)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(ys.subscriptions == [Subscription(210, 215)])
    }

    @Test func switchIsNotSubscribedWhenTheMaybeHasAnElementOrFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(5, 7), .completed(5)])
        let element = scheduler.start { Maybe.just(1).ifEmpty(switchTo: ys.asSingle()) }
        #expect(element.events == [.next(200, 1), .completed(200)])
        let failed = TestScheduler(initialClock: 0).start {
            Maybe<Int>.error(TestError(2)).ifEmpty(switchTo: ys.asSingle())
        }
        #expect(failed.events == [.error(200, TestError(2))])
        #expect(ys.subscriptions == [])
    }

    @Test func disposingDuringTheFallbackDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(100, 7), .completed(100)])
        let res = scheduler.start(disposed: 250) { Maybe<Int>.empty().ifEmpty(switchTo: ys.asSingle()) }
        #expect(res.events == [])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }
}

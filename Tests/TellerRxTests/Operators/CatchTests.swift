@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct CatchTests {
    @Test func neverSourceStaysSubscribedAndTheHandlerIsNotCalled() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let calls = Locked(0)
        let res = scheduler.start {
            xs.catch { _ in
                calls.increment()
                return .just(0)
            }
        }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
        #expect(calls.value == 0)
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.catch { _ in .just(0) } }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func valuesPassThroughWhenNothingFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.catch { _ in .just(0) } }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorSwitchesToTheHandlersSequenceAtTheErrorTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .error(230, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 4), .next(20, 5), .completed(30)])
        let seen = Locked<[TestError]>([])
        let res = scheduler.start {
            xs.catch { error in
                seen.withLock { $0.append(error as! TestError) }
                return ys.asObservable()
            }
        }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(240, 4), .next(250, 5), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 260)])
        #expect(seen.value == [TestError(1)])
    }

    @Test func errorOfTheReplacementIsForwardedNotCaughtAgain() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 4), .error(20, TestError(2))])
        let calls = Locked(0)
        let res = scheduler.start {
            xs.catch { _ in
                calls.increment()
                return ys.asObservable()
            }
        }
        #expect(res.events == [.next(210, 2), .next(240, 4), .error(250, TestError(2))])
        #expect(ys.subscriptions == [Subscription(230, 250)])
        #expect(calls.value == 1)
    }

    @Test func handlerThatThrowsSendsItsErrorDownstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(1)), .next(240, 3)])
        let res = scheduler.start {
            xs.catch { _ -> Observable<Int> in throw TestError(9) }
        }
        #expect(res.events == [.next(210, 2), .error(230, TestError(9))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposingDuringTheReplacementDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 4), .next(30, 5), .completed(40)])
        let res = scheduler.start(disposed: 250) { xs.catch { _ in ys.asObservable() } }
        #expect(res.events == [.next(210, 2), .next(240, 4)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 250)])
    }

    @Test func sourceFailingSynchronouslyKeepsItsReplacementSubscribed() {
        let subject = PublishSubject<Int>()
        let observer = RecordingObserver<Int>()
        let subscription = Observable<Int>.error(TestError(1)).catch { _ in subject.asObservable() }.subscribe(observer)
        subject.onNext(1)
        #expect(observer.events == [.next(1)])
        subscription.dispose()
        #expect(subject.hasObservers == false)
    }

    @Test func catchAndReturnEndsWithTheElementInsteadOfTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(1))])
        let res = scheduler.start { xs.catchAndReturn(-1) }
        #expect(res.events == [.next(210, 2), .next(230, -1), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func catchAndReturnPassesACompletingSourceThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        let res = scheduler.start { xs.catchAndReturn(-1) }
        #expect(res.events == [.next(210, 2), .completed(230)])
    }
}

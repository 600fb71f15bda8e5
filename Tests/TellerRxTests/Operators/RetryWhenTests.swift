import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

private struct OtherError: Error, Equatable {}

@Suite struct RetryWhenTests {
    @Test func triggerThatNeverFiresLeavesTheFailedSourceUnsubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .error(250, TestError(1)),
        ])
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.retry(when: { (_: Observable<TestError>) in never }) }
        #expect(res.events == [.next(210, 2), .next(220, 3)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(never.subscriptions == [Subscription(200, 1000)])
    }

    @Test func sourceThatCompletesCompletesTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.retry(when: { (_: Observable<TestError>) in never }) }
        #expect(res.events == [.next(210, 2), .completed(250)])
        #expect(never.subscriptions == [Subscription(200, 250)])
    }

    @Test func eachTriggerElementResubscribesUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(30, TestError(1))])
        let res = scheduler.start(disposed: 300) { xs.retry(when: { (errors: Observable<any Error>) in errors }) }
        #expect(res.events == [.next(210, 1), .next(240, 1), .next(270, 1)])
        #expect(
            xs.subscriptions == [
                Subscription(200, 230), Subscription(230, 260), Subscription(260, 290), Subscription(290, 300),
            ]
        )
    }

    @Test func triggerThatFailsEndsTheResultWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, TestError(1))])
        let res = scheduler.start(disposed: 300) {
            xs.retry(when: { (errors: Observable<TestError>) in
                let count = Locked(0)
                return errors.map { _ -> Int in
                    count.increment()
                    if count.value == 2 { throw TestError(9) }
                    return count.value
                }
            })
        }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .error(260, TestError(9))])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 260)])
    }

    @Test func triggerThatCompletesAfterAnErrorCompletesTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(30, TestError(1))])
        let res = scheduler.start(disposed: 300) {
            xs.retry(when: { (errors: Observable<TestError>) in
                Observable<Int>.create { observer in
                    let count = Locked(0)
                    return errors.subscribe(onNext: { _ in
                        count.increment()
                        if count.value < 2 { observer.onNext(count.value) } else { observer.onCompleted() }
                    })
                }
            })
        }
        #expect(res.events == [.next(210, 1), .next(240, 1), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 260)])
    }

    @Test func triggerThatCompletedWhileTheSourceRanEndsTheResultAtTheNextFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, TestError(1))])
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(225)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<TestError>) in empty }) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func triggerElementsWhileTheSourceRunsAreIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(30, TestError(1))])
        let trigger = scheduler.createHotObservable([.next(215, 0), .next(280, 0)])
        let res = scheduler.start(disposed: 295) { xs.retry(when: { (_: Observable<TestError>) in trigger }) }
        // 215 fired while the first attempt ran; only 280, after the failure at 230, resubscribes.
        #expect(res.events == [.next(210, 1), .next(290, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(280, 295)])
    }

    @Test func resubscribesWhenTheTriggerFiresNotWhenTheErrorArrives() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError(1))])
        let res = scheduler.start(disposed: 340) {
            xs.retry(when: { (errors: Observable<TestError>) in
                // Fire 50 ticks after each failure.
                Observable<Int>.create { observer in
                    errors.subscribe(onNext: { _ in
                        _ = scheduler.scheduleRelative((), dueTime: .seconds(50)) { _ in
                            observer.onNext(0)
                            return Disposables.create()
                        }
                    })
                }
            })
        }
        #expect(res.events == [.next(205, 1), .next(265, 1), .next(325, 1)])
        #expect(xs.subscriptions == [Subscription(200, 210), Subscription(260, 270), Subscription(320, 330)])
    }

    @Test func errorOfAnotherTypeIsForwardedAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError(1))])
        let handlerSaw = Locked(0)
        let res = scheduler.start(disposed: 800) {
            xs.retry(when: { (errors: Observable<OtherError>) in
                errors.map { _ in handlerSaw.increment() }
            })
        }
        #expect(res.events == [.next(205, 1), .error(210, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(handlerSaw.value == 0)
    }

    @Test func handlerGetsTheTypedErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>]([.error(10, TestError(4))]))
        let seen = Locked<[Int]>([])
        _ = scheduler.start(disposed: 235) {
            xs.retry(when: { (errors: Observable<TestError>) in
                errors.map { seen.append($0.id) }
            })
        }
        #expect(seen.value == [4, 4, 4])
    }

    @Test func disposingWhileWaitingForTheTriggerDisposesItAndNeverResubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(30, TestError(1))])
        let trigger = scheduler.createHotObservable([.next(300, 0)])
        let res = scheduler.start(disposed: 250) { xs.retry(when: { (_: Observable<TestError>) in trigger }) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(trigger.subscriptions == [Subscription(200, 250)])
    }

    @Test func handlerRunsOncePerSubscriptionAndItsTriggerIsSubscribedBeforeTheSource() {
        let order = Locked<[String]>([])
        let source = Observable<Int>.never().do(onSubscribe: { order.withLock { $0.append("source") } })
        let retried = source.retry(when: { (errors: Observable<any Error>) in
            order.withLock { $0.append("handler") }
            return errors.do(onSubscribe: { order.withLock { $0.append("trigger") } })
        })
        let first = retried.subscribe()
        let second = retried.subscribe()
        #expect(order.value == ["handler", "trigger", "source", "handler", "trigger", "source"])
        first.dispose()
        second.dispose()
    }

    @Test func synchronouslyFailingSourceIsRetriedInALoopNotRecursively() {
        let attempts = Locked(0)
        let source = Observable<Int>.create { observer in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            observer.onNext(attempt)
            if attempt < 20_000 { observer.onError(TestError(1)) } else { observer.onCompleted() }
            return Disposables.create()
        }
        let observer = RecordingObserver<Int>()
        _ = source.retry(when: { (errors: Observable<any Error>) in errors }).subscribe(observer)
        #expect(observer.elements.count == 20_000)
        #expect(observer.events.last?.isCompleted == true)
    }
}

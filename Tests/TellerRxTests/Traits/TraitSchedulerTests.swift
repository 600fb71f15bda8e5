import Dispatch
import TellerRx
import TellerTesting
import Testing

/// The scheduler and time wrappers of the traits: they keep the trait type and forward to the
/// observable operators (whose own tests cover the timing in depth).
@Suite struct TraitSchedulerTests {
    @Test func observeOnDeliversTheSuccessOneTickLaterOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { () -> Single<Int> in xs.asSingle().observe(on: scheduler) }
        #expect(res.events == [.next(211, 1), .completed(211)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func observeOnSpellingBehavesTheSame() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError(1))])
        let res = scheduler.start { () -> Maybe<Int> in xs.asMaybe().observeOn(scheduler) }
        #expect(res.events == [.error(211, TestError(1))])
    }

    @Test func observeOnDeliversOnTheSchedulersQueue() {
        let marker = QueueMarker(label: "trait.observeOn")
        let scheduler = SerialDispatchQueueScheduler(
            queue: marker.queue,
            internalSerialQueueName: "trait.observeOn.serial"
        )
        let done = DispatchSemaphore(value: 0)
        let onQueue = Locked<Bool?>(nil)
        let subscription = Single.just(1)
            .observe(on: scheduler)
            .subscribe(onSuccess: { _ in
                onQueue.withLock { $0 = marker.isCurrent }
                done.signal()
            })
        #expect(done.waitOrTimeOut())
        #expect(onQueue.value == true)
        subscription.dispose()
    }

    @Test func subscribeOnSubscribesOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Never>>.completed(10)])
        let res = scheduler.start { () -> Completable in xs.asCompletable().subscribe(on: scheduler) }
        #expect(res.events == [.completed(211)])
        // Subscribed one tick late, on the scheduler; `asCompletable` frees the source as soon
        // as it completes.
        #expect(xs.subscriptions == [Subscription(201, 211)])
    }

    @Test func subscribeOnRunsTheCreateClosureOnTheSchedulersQueue() {
        let marker = QueueMarker(label: "trait.subscribeOn")
        let scheduler = SerialDispatchQueueScheduler(
            queue: marker.queue,
            internalSerialQueueName: "trait.subscribeOn.serial"
        )
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Bool?>(nil)
        let subscription = Single<Bool>.create { single in
            single(.success(marker.isCurrent))
            return Disposables.create()
        }
        .subscribeOn(scheduler)
        .subscribe(onSuccess: { onQueue in
            result.withLock { $0 = onQueue }
            done.signal()
        })
        #expect(done.waitOrTimeOut())
        #expect(result.value == true)
        subscription.dispose()
    }

    @Test func delayShiftsTheSuccessButNotAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { () -> Single<Int> in xs.asSingle().delay(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(240, 1), .completed(240)])

        let failing = TestScheduler(initialClock: 0)
        let ys = failing.createColdObservable([Recorded<Event<Int>>.error(10, TestError(2))])
        let failed = failing.start { () -> Single<Int> in ys.asSingle().delay(.seconds(30), scheduler: failing) }
        #expect(failed.events == [.error(210, TestError(2))])
    }

    @Test func delaySubscriptionSubscribesLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { () -> Maybe<Int> in
            xs.asMaybe().delaySubscription(.seconds(30), scheduler: scheduler)
        }
        #expect(res.events == [.next(240, 1), .completed(240)])
        #expect(xs.subscriptions == [Subscription(230, 240)])
    }

    @Test func delaySubscriptionDisposedEarlyNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start(disposed: 220) { () -> Single<Int> in
            xs.asSingle().delaySubscription(.seconds(30), scheduler: scheduler)
        }
        #expect(res.events == [])
        #expect(xs.subscriptions == [])
    }

    @Test func timeoutFailsASingleThatTakesTooLong() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start { () -> Single<Int> in xs.asSingle().timeout(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.error(220, RxError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func timeoutLetsAnOutcomeInTimeThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { () -> Single<Int> in xs.asSingle().timeout(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .completed(210)])
    }

    @Test func timeoutWithOtherSwitchesToTheFallbackTrait() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let ys = scheduler.createColdObservable([.next(5, 2), .completed(5)])
        let res = scheduler.start { () -> Single<Int> in
            xs.asSingle().timeout(.seconds(20), other: ys.asSingle(), scheduler: scheduler)
        }
        #expect(res.events == [.next(225, 2), .completed(225)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(220, 225)])
    }

    @Test func completableTimeoutWithOtherKeepsAnInTimeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Never>>.completed(10)])
        let ys = scheduler.createColdObservable([Recorded<Event<Never>>.error(5, TestError(3))])
        let res = scheduler.start { () -> Completable in
            xs.asCompletable().timeout(.seconds(20), other: ys.asCompletable(), scheduler: scheduler)
        }
        #expect(res.events == [.completed(210)])
        #expect(ys.subscriptions == [])
    }

    @Test func timerSucceedsWithZeroAfterTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.timer(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(230, 0), .completed(230)])
    }

    @Test func timerDisposedEarlySendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 220) { Maybe<UInt8>.timer(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [])
    }

    @Test func timerOnARealSchedulerSucceeds() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "trait.timer")
        let done = DispatchSemaphore(value: 0)
        let value = Locked<Int?>(nil)
        let subscription = Single<Int>.timer(.milliseconds(1), scheduler: scheduler)
            .subscribe(onSuccess: { element in
                value.withLock { $0 = element }
                done.signal()
            })
        #expect(done.waitOrTimeOut())
        #expect(value.value == 0)
        subscription.dispose()
    }
}

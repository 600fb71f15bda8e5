import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// The scheduler and time wrappers of the traits: they keep the trait type and forward to the
/// observable operators (whose own tests cover the timing in depth).
@Suite struct TraitSchedulerTests {
    @Test func observeOnDeliversTheSuccessOneTickLaterAndItsCompletionInTheNextStep() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { () -> Single<Int> in xs.asSingle().observe(on: scheduler) }
        #expect(res.events == [.next(211, 1), .completed(212)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test(arguments: [TraitKind.single, .maybe])
    func observeOnSchedulesTheSuccessAndTheCompletionSeparately(kind: TraitKind) {
        // RxSwift's test_observeOn: a trait is an observable that sends `next` then
        // `completed`, and observeOn schedules each event on its own.
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { kind.justObserved(on: scheduler) }
        #expect(res.events == [.next(201, 1), .completed(202)])
    }

    @Test func observeOnDeliversAnEmptyMaybeOrACompletableInOneStep() {
        let scheduler = TestScheduler(initialClock: 0)
        let maybe = scheduler.start { Maybe<Int>.empty().observe(on: scheduler) }
        #expect(maybe.events == [.completed(201)])
        let other = TestScheduler(initialClock: 0)
        let completable = other.start { Completable.empty().observe(on: other) }
        #expect(completable.events == [.completed(201)])
    }

    @Test func observeOnOnARealQueueDeliversTheSuccessThenTheCompletionOnTheQueue() {
        let marker = QueueMarker(label: "trait.observeOn.completion")
        let scheduler = SerialDispatchQueueScheduler(
            queue: marker.queue,
            internalSerialQueueName: "trait.observeOn.completion.serial"
        )
        let done = DispatchSemaphore(value: 0)
        let log = Locked<[String]>([])
        let subscription = Maybe.just(1)
            .observe(on: scheduler)
            .asObservable()
            .subscribe(
                onNext: { _ in log.withLock { $0.append("next on queue: \(marker.isCurrent)") } },
                onCompleted: {
                    log.withLock { $0.append("completed on queue: \(marker.isCurrent)") }
                    done.signal()
                }
            )
        #expect(done.waitOrTimeOut())
        #expect(log.value == ["next on queue: true", "completed on queue: true"])
        subscription.dispose()
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
        #expect(res.events == [.next(240, 1), .completed(241)])

        let failing = TestScheduler(initialClock: 0)
        let ys = failing.createColdObservable([Recorded<Event<Int>>.error(10, TestError(2))])
        let failed = failing.start { () -> Single<Int> in ys.asSingle().delay(.seconds(30), scheduler: failing) }
        #expect(failed.events == [.error(210, TestError(2))])
    }

    @Test(arguments: [TraitKind.single, .maybe])
    func delaySendsTheCompletionOneStepAfterTheDelayedSuccess(kind: TraitKind) {
        // RxSwift's test_delay: the completion, due at the same time as the success, is
        // scheduled again after the success and arrives one tick later.
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { kind.justDelayed(by: .seconds(2), scheduler: scheduler) }
        #expect(res.events == [.next(202, 1), .completed(203)])
    }

    @Test func delayOfAnEmptyMaybeDelaysTheCompletionOnly() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Maybe<Int>.empty().delay(.seconds(2), scheduler: scheduler) }
        #expect(res.events == [.completed(202)])
    }

    @Test func disposingAfterTheDelayedSuccessCancelsTheCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Single.just(1).delay(.seconds(1), scheduler: scheduler) }
        #expect(res.events == [.next(201, 1)])
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

/// Builds a one-element `Single` or `Maybe` for the tests that cover both.
enum TraitKind: Sendable, CustomStringConvertible {
    case single
    case maybe

    var description: String {
        switch self {
        case .single: "Single"
        case .maybe: "Maybe"
        }
    }

    /// `just(1)` of this trait, through the trait's `observe(on:)`.
    func justObserved(on scheduler: any ImmediateSchedulerType) -> Observable<Int> {
        switch self {
        case .single: Single.just(1).observe(on: scheduler).asObservable()
        case .maybe: Maybe.just(1).observe(on: scheduler).asObservable()
        }
    }

    /// `just(1)` of this trait, through the trait's `delay(_:scheduler:)`.
    func justDelayed(by dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Int> {
        switch self {
        case .single: Single.just(1).delay(dueTime, scheduler: scheduler).asObservable()
        case .maybe: Maybe.just(1).delay(dueTime, scheduler: scheduler).asObservable()
        }
    }
}

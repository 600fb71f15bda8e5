import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct BehaviorSubjectTests {
    // MARK: - Marble grid

    @Test func eachSubscriberGetsTheCurrentValueThenLaterEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .next(410, 6),
            .next(520, 7), .next(630, 8), .next(710, 9), .next(870, 10), .next(940, 11), .next(1020, 12),
        ])
        let subject = BehaviorSubject(value: 100)
        let source = DisposableSlot()
        let subscriptions = (DisposableSlot(), DisposableSlot(), DisposableSlot())
        let results = (
            scheduler.createObserver(Int.self), scheduler.createObserver(Int.self), scheduler.createObserver(Int.self)
        )
        scheduler.scheduleAt(200) { source.set(xs.subscribe(subject)) }
        scheduler.scheduleAt(1000) { source.dispose() }
        scheduler.scheduleAt(300) { subscriptions.0.set(subject.subscribe(results.0)) }
        scheduler.scheduleAt(400) { subscriptions.1.set(subject.subscribe(results.1)) }
        scheduler.scheduleAt(900) { subscriptions.2.set(subject.subscribe(results.2)) }
        scheduler.scheduleAt(600) { subscriptions.0.dispose() }
        scheduler.scheduleAt(700) { subscriptions.1.dispose() }
        scheduler.scheduleAt(950) { subscriptions.2.dispose() }
        scheduler.start()

        #expect(results.0.events == [.next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
        #expect(results.1.events == [.next(400, 5), .next(410, 6), .next(520, 7), .next(630, 8)])
        #expect(results.2.events == [.next(900, 10), .next(940, 11)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func subscriberBeforeAnyElementGetsTheInitialValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .completed(300)])
        let subject = BehaviorSubject(value: 0)
        let results = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(150) { _ = subject.subscribe(results) }
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.start()

        #expect(results.events == [.next(150, 0), .next(250, 1), .completed(300)])
    }

    @Test func subscriberAfterCompletionGetsOnlyCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .completed(300)])
        let subject = BehaviorSubject(value: 0)
        let results = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(results) }
        scheduler.start()

        #expect(results.events == [.completed(400)])
    }

    @Test func subscriberAfterErrorGetsOnlyTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .error(300, TestError(1))])
        let subject = BehaviorSubject(value: 0)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(220) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        #expect(early.events == [.next(220, 0), .next(250, 1), .error(300, TestError(1))])
        #expect(late.events == [.error(400, TestError(1))])
    }

    @Test func neverEndingSourceLeavesSubscribersWithTheCurrentValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let subject = BehaviorSubject(value: 0)
        let results = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(results) }
        scheduler.start()

        #expect(results.events == [.next(300, 0)])
    }

    // MARK: - value()

    @Test func valueIsTheInitialValueThenTheLatestElement() throws {
        let subject = BehaviorSubject(value: 1)
        #expect(try subject.value() == 1)
        subject.onNext(2)
        subject.onNext(3)
        #expect(try subject.value() == 3)
    }

    @Test func valueAfterCompletionIsTheLastElement() throws {
        let subject = BehaviorSubject(value: 1)
        subject.onNext(2)
        subject.onCompleted()
        subject.onNext(3)
        #expect(try subject.value() == 2)
    }

    @Test func valueAfterAnErrorThrowsIt() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(TestError(7))
        #expect(throws: TestError(7)) { try subject.value() }
    }

    @Test func valueAfterDisposeThrowsDisposed() {
        let subject = BehaviorSubject(value: 1)
        subject.dispose()
        #expect(throws: RxError.disposed(object: "BehaviorSubject")) { try subject.value() }
    }

    // MARK: - Terminal events and disposal

    @Test func eventsAfterCompletionAreIgnored() throws {
        let subject = BehaviorSubject(value: 0)
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.onCompleted()
        subject.onNext(1)
        subject.onError(TestError(1))

        #expect(recorder.events == [.next(0), .completed])
        #expect(try subject.value() == 0)
    }

    @Test func disposingInsideOnNextStopsFurtherEvents() {
        let subject = BehaviorSubject(value: 0)
        let slot = DisposableSlot()
        let recorder = EventRecorder<Int> { event in
            if event.element == 1 { slot.dispose() }
        }
        slot.set(subject.subscribe(recorder))
        subject.onNext(1)
        subject.onNext(2)

        #expect(recorder.elements == [0, 1])
        #expect(!subject.hasObservers)
    }

    @Test func subscriberDisposedByAnotherDuringADeliveryGetsNothingMore() {
        let subject = BehaviorSubject(value: 0)
        let victimSubscription = DisposableSlot()
        let killer = EventRecorder<Int> { event in
            if event.element == 1 { victimSubscription.dispose() }
        }
        let victim = EventRecorder<Int>()
        _ = subject.subscribe(killer)
        victimSubscription.set(subject.subscribe(victim))
        subject.onNext(1)
        subject.onNext(2)

        #expect(killer.elements == [0, 1, 2])
        #expect(victim.elements == [0])
    }

    @Test func disposedSubjectGivesNewSubscribersTheDisposedError() {
        let subject = BehaviorSubject(value: 0)
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.dispose()
        subject.dispose()
        subject.onNext(1)
        let late = EventRecorder<Int>()
        _ = subject.subscribe(late)

        #expect(recorder.events == [.next(0)])
        #expect(late.events == [.error(RxError.disposed(object: "BehaviorSubject"))])
        #expect(subject.isDisposed)
        #expect(!subject.hasObservers)
    }

    @Test func hasObserversTracksSubscriptions() {
        let subject = BehaviorSubject(value: 0)
        #expect(!subject.hasObservers)
        let subscription = subject.subscribe(onNext: { _ in })
        #expect(subject.hasObservers)
        subscription.dispose()
        subscription.dispose()
        #expect(!subject.hasObservers)
    }

    // MARK: - Re-entrancy and joining during a delivery

    @Test func reentrantEmissionIsDeliveredAfterTheCurrentEventInTheSameOrderToAll() {
        let subject = BehaviorSubject(value: 0)
        let first = EventRecorder<Int> { event in
            if event.element == 1 { subject.onNext(2) }
        }
        let second = EventRecorder<Int>()
        _ = subject.subscribe(first)
        _ = subject.subscribe(second)
        subject.onNext(1)

        #expect(first.elements == [0, 1, 2])
        #expect(second.elements == [0, 1, 2])
        #expect(first.overlaps == 0 && second.overlaps == 0)
    }

    @Test func subscriberAddedInsideOnNextGetsTheCurrentValueAtOnceAndNoDuplicate() {
        let subject = BehaviorSubject(value: 0)
        let added = EventRecorder<Int>()
        let seenBeforeSubscribeReturned = Locked<[Int]>([])
        let subscribing = EventRecorder<Int> { event in
            if event.element == 1 {
                _ = subject.subscribe(added)
                seenBeforeSubscribeReturned.withLock { $0 = added.elements }
            }
        }
        _ = subject.subscribe(subscribing)
        subject.onNext(1)
        subject.onNext(2)

        #expect(seenBeforeSubscribeReturned.value == [1])
        #expect(added.elements == [1, 2])
        #expect(subscribing.elements == [0, 1, 2])
    }

    @Test func subscriberAddedInsideOnNextAfterAQueuedElementGetsItOnceAndFirst() {
        // 2 is accepted (queued) before `added` joins, so `added` starts with 2, and must not
        // get 2 again when the queue delivers it to the others.
        let subject = BehaviorSubject(value: 0)
        let added = EventRecorder<Int>()
        let subscribing = EventRecorder<Int> { event in
            if event.element == 1 {
                subject.onNext(2)
                _ = subject.subscribe(added)
                subject.onNext(3)
            }
        }
        let other = EventRecorder<Int>()
        _ = subject.subscribe(subscribing)
        _ = subject.subscribe(other)
        subject.onNext(1)

        #expect(added.elements == [2, 3])
        #expect(subscribing.elements == [0, 1, 2, 3])
        #expect(other.elements == [0, 1, 2, 3])
        #expect(added.overlaps == 0)
    }

    @Test func subscriberJoiningWhileAnotherThreadDeliversGetsTheLatestValueOnceThenLaterEvents() {
        let subject = BehaviorSubject(value: 0)
        let joined = EventRecorder<Int>()
        let joinReturned = Locked(false)
        let blocker = EventRecorder<Int> { event in
            guard event.element == 1 else { return }
            // While this thread is delivering 1, another thread sends 2 and 3 (queued behind
            // 1) and then subscribes: it must start with 3, exactly once, before 4.
            let returned = runOnOtherThread {
                subject.onNext(2)
                subject.onNext(3)
                _ = subject.subscribe(joined)
                subject.onNext(4)
            }
            joinReturned.withLock { $0 = returned }
        }
        _ = subject.subscribe(blocker)
        subject.onNext(1)

        #expect(joinReturned.value)
        #expect(blocker.elements == [0, 1, 2, 3, 4])
        #expect(joined.elements == [3, 4])
        #expect(joined.overlaps == 0)
    }

    @Test func subscribingFromAnotherThreadWhileIdleDeliversTheValueBeforeReturning() {
        let subject = BehaviorSubject(value: 5)
        let recorder = EventRecorder<Int>()
        let seen = Locked<[Int]>([])
        runOnOtherThread {
            _ = subject.subscribe(recorder)
            seen.withLock { $0 = recorder.elements }
        }
        #expect(seen.value == [5])
    }

    // MARK: - Memory

    @Test func disposingASubscriptionReleasesTheObserver() {
        let subject = BehaviorSubject(value: 0)
        var recorder: EventRecorder<Int>? = EventRecorder()
        let weak = WeakBox(recorder)
        let subscription = subject.subscribe(recorder!)
        recorder = nil
        subscription.dispose()
        #expect(weak.object == nil)
    }

    @Test func forgottenSubjectAndSubscriptionAreFreed() {
        var subject: BehaviorSubject<Int>? = BehaviorSubject(value: 0)
        let weakSubject = WeakBox(subject)
        var recorder: EventRecorder<Int>? = EventRecorder()
        let weakRecorder = WeakBox(recorder)
        let subscription = subject!.subscribe(recorder!)
        subject = nil
        recorder = nil
        #expect(weakSubject.object == nil)
        #expect(weakRecorder.object == nil)
        subscription.dispose()
    }

    @Test func replacedValueMayUseTheSubjectFromItsDeinit() throws {
        let freed = Locked(0)
        let holder = Locked<BehaviorSubject<DeinitProbe>?>(nil)
        let probe = {
            DeinitProbe {
                _ = try? holder.value?.value()
                freed.increment()
            }
        }
        let subject = BehaviorSubject(value: probe())
        holder.withLock { $0 = subject }
        subject.onNext(probe())  // frees the initial value: outside the lock
        subject.onNext(probe())
        #expect(freed.value == 2)
        holder.withLock { $0 = nil }
    }

    @Test func asObserverSendsIntoTheSubject() throws {
        let subject = BehaviorSubject(value: 0)
        subject.asObserver().onNext(4)
        #expect(try subject.value() == 4)
    }
}

import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct PublishSubjectTests {
    // MARK: - Marble grid

    @Test func eachSubscriberGetsOnlyTheEventsSentWhileItIsSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .next(410, 6),
            .next(520, 7), .next(630, 8), .next(710, 9), .next(870, 10), .next(940, 11), .next(1020, 12),
        ])
        let subject = PublishSubject<Int>()
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
        scheduler.scheduleAt(800) { subscriptions.0.dispose() }
        scheduler.scheduleAt(950) { subscriptions.2.dispose() }
        scheduler.start()

        #expect(results.0.events == [.next(340, 5), .next(410, 6), .next(520, 7)])
        #expect(results.1.events == [.next(410, 6), .next(520, 7), .next(630, 8)])
        #expect(results.2.events == [.next(940, 11)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func completionReachesCurrentSubscribersAndLateSubscribersGetItAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(280, 4), .next(340, 5), .completed(630), .next(640, 9), .completed(650), .error(660, TestError(1)),
        ])
        let subject = PublishSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(900) { _ = subject.subscribe(late) }
        scheduler.start()

        #expect(early.events == [.next(340, 5), .completed(630)])
        #expect(late.events == [.completed(900)])
    }

    @Test func errorReachesCurrentSubscribersAndLateSubscribersGetItAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(340, 5), .error(630, TestError(1)), .next(640, 9), .completed(650),
        ])
        let subject = PublishSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(900) { _ = subject.subscribe(late) }
        scheduler.start()

        #expect(early.events == [.next(340, 5), .error(630, TestError(1))])
        #expect(late.events == [.error(900, TestError(1))])
    }

    @Test func neverEndingSourceLeavesSubscribersWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let subject = PublishSubject<Int>()
        let results = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(results) }
        scheduler.start()

        #expect(results.events == [])
        #expect(subject.hasObservers)
    }

    // MARK: - Terminal events

    @Test func eventsAfterCompletionAreIgnored() {
        let subject = PublishSubject<Int>()
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        subject.onError(TestError(1))
        subject.onCompleted()

        #expect(recorder.events == [.next(1), .completed])
        #expect(!subject.hasObservers)
    }

    @Test func eventsAfterErrorAreIgnored() {
        let subject = PublishSubject<Int>()
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.onError(TestError(1))
        subject.onNext(2)
        subject.onCompleted()
        subject.onError(TestError(2))

        #expect(recorder.events == [.error(TestError(1))])
        let late = EventRecorder<Int>()
        _ = subject.subscribe(late)
        #expect(late.events == [.error(TestError(1))])
    }

    // MARK: - Disposal

    @Test func disposingInsideOnNextStopsFurtherEvents() {
        let subject = PublishSubject<Int>()
        let slot = DisposableSlot()
        let recorder = EventRecorder<Int> { event in
            if event.element == 2 { slot.dispose() }
        }
        slot.set(subject.subscribe(recorder))
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        subject.onCompleted()

        #expect(recorder.events == [.next(1), .next(2)])
        #expect(!subject.hasObservers)
    }

    @Test func subscriberDisposedByAnotherDuringADeliveryGetsNothingMore() {
        let subject = PublishSubject<Int>()
        let victimSubscription = DisposableSlot()
        let killer = EventRecorder<Int> { event in
            if event.element == 2 { victimSubscription.dispose() }
        }
        let victim = EventRecorder<Int>()
        _ = subject.subscribe(killer)
        victimSubscription.set(subject.subscribe(victim))
        subject.onNext(1)
        subject.onNext(2)  // killer runs first and disposes victim before victim's turn
        subject.onNext(3)
        subject.onCompleted()

        #expect(killer.events == [.next(1), .next(2), .next(3), .completed])
        #expect(victim.events == [.next(1)])
    }

    @Test func subscriberDisposedByAnEarlierOneFromAReentrantEventGetsNothingMore() {
        // The victim was already in the snapshot of an event queued re-entrantly; disposing it
        // before that event is delivered must still skip it.
        let subject = PublishSubject<Int>()
        let victimSubscription = DisposableSlot()
        let killer = EventRecorder<Int> { event in
            if event.element == 1 {
                subject.onNext(2)  // queued, with the victim among its subscribers
                victimSubscription.dispose()
            }
        }
        let victim = EventRecorder<Int>()
        _ = subject.subscribe(killer)
        victimSubscription.set(subject.subscribe(victim))
        subject.onNext(1)

        #expect(killer.elements == [1, 2])
        #expect(victim.elements == [])
    }

    @Test func disposingASubscriptionTwiceIsHarmless() {
        let subject = PublishSubject<Int>()
        let first = EventRecorder<Int>()
        let second = EventRecorder<Int>()
        let subscription = subject.subscribe(first)
        _ = subject.subscribe(second)
        subscription.dispose()
        subscription.dispose()
        subject.onNext(1)
        subscription.dispose()

        #expect(first.events == [])
        #expect(second.events == [.next(1)])
        #expect(subject.hasObservers)
    }

    @Test func disposingAfterCompletionIsHarmless() {
        let subject = PublishSubject<Int>()
        let recorder = EventRecorder<Int>()
        let subscription = subject.subscribe(recorder)
        subject.onCompleted()
        subscription.dispose()
        subscription.dispose()

        #expect(recorder.events == [.completed])
    }

    @Test func hasObserversTracksSubscriptions() {
        let subject = PublishSubject<Int>()
        #expect(!subject.hasObservers)
        let first = subject.subscribe(onNext: { _ in })
        #expect(subject.hasObservers)
        let second = subject.subscribe(onNext: { _ in })
        first.dispose()
        #expect(subject.hasObservers)
        second.dispose()
        #expect(!subject.hasObservers)
    }

    @Test func subscribersAreCalledInSubscriptionOrder() {
        let subject = PublishSubject<Int>()
        let log = Locked<[Int]>([])
        for index in 0..<5 {
            _ = subject.subscribe(onNext: { _ in log.append(index) })
        }
        subject.onNext(0)
        #expect(log.value == [0, 1, 2, 3, 4])
    }

    // MARK: - Disposing the subject

    @Test func disposedSubjectGivesNewSubscribersTheDisposedError() {
        let subject = PublishSubject<Int>()
        subject.dispose()
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)

        #expect(recorder.events == [.error(RxError.disposed(object: "PublishSubject"))])
        #expect(subject.isDisposed)
        #expect(!subject.hasObservers)
    }

    @Test func disposedSubjectGivesTheDisposedErrorEvenAfterCompletion() {
        let subject = PublishSubject<Int>()
        subject.onCompleted()
        subject.dispose()
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)

        #expect(recorder.events == [.error(RxError.disposed(object: "PublishSubject"))])
    }

    @Test func disposingTheSubjectStopsCurrentSubscribersAndIgnoresLaterEvents() {
        let subject = PublishSubject<Int>()
        let recorder = EventRecorder<Int>()
        let subscription = subject.subscribe(recorder)
        subject.onNext(1)
        #expect(!subject.isDisposed)
        subject.dispose()
        subject.onNext(2)
        subject.onCompleted()
        subject.dispose()
        subscription.dispose()

        #expect(recorder.events == [.next(1)])
        #expect(subject.isDisposed)
    }

    @Test func disposingTheSubjectInsideOnNextSkipsTheRemainingSubscribers() {
        let subject = PublishSubject<Int>()
        let first = EventRecorder<Int> { event in
            if event.element == 1 {
                subject.onNext(2)  // queued, then dropped by dispose
                subject.dispose()
            }
        }
        let second = EventRecorder<Int>()
        _ = subject.subscribe(first)
        _ = subject.subscribe(second)
        subject.onNext(1)

        #expect(first.elements == [1])
        #expect(second.elements == [])
    }

    // MARK: - Re-entrancy

    @Test func reentrantEmissionIsDeliveredAfterTheCurrentEventInTheSameOrderToAll() {
        let subject = PublishSubject<Int>()
        let first = EventRecorder<Int> { event in
            if event.element == 1 {
                subject.onNext(2)
                subject.onNext(3)
            }
        }
        let second = EventRecorder<Int> { event in
            if event.element == 2 { subject.onCompleted() }
        }
        _ = subject.subscribe(first)
        _ = subject.subscribe(second)
        subject.onNext(1)

        // Without queueing, `second` would see 2 and 3 before 1, and `first` would nest.
        #expect(first.events == [.next(1), .next(2), .next(3), .completed])
        #expect(second.events == [.next(1), .next(2), .next(3), .completed])
        #expect(first.overlaps == 0)
        #expect(second.overlaps == 0)
    }

    @Test func subscriberAddedInsideOnNextGetsOnlyLaterEvents() {
        let subject = PublishSubject<Int>()
        let added = EventRecorder<Int>()
        let subscribing = EventRecorder<Int> { event in
            if event.element == 1 {
                subject.onNext(2)  // accepted before `added` joins: not for it
                _ = subject.subscribe(added)
                subject.onNext(3)
            }
        }
        _ = subject.subscribe(subscribing)
        subject.onNext(1)

        #expect(subscribing.elements == [1, 2, 3])
        #expect(added.elements == [3])
    }

    @Test func emissionFromAnotherThreadDuringADeliveryIsQueuedWithoutBlocking() {
        let subject = PublishSubject<Int>()
        let otherThreadReturned = Locked(false)
        let deliveringThread = Locked<[String]>([])
        let first = EventRecorder<Int> { event in
            if event.element == 1 {
                // Another thread sends 2 while 1 is being delivered; its onNext must return
                // (queued) rather than wait for this delivery or deliver concurrently.
                let returned = runOnOtherThread { subject.onNext(2) }
                otherThreadReturned.withLock { $0 = returned }
            }
            deliveringThread.withLock { $0.append(currentThreadName()) }
        }
        let second = EventRecorder<Int>()
        _ = subject.subscribe(first)
        _ = subject.subscribe(second)
        let name = currentThreadName()
        subject.onNext(1)

        #expect(otherThreadReturned.value)
        #expect(first.elements == [1, 2])
        #expect(second.elements == [1, 2])
        #expect(deliveringThread.value == [name, name])
    }

    @Test func longQueueBuiltWhileDeliveringIsDeliveredInOrderToAll() {
        // Thousands of events queued by another thread during one delivery, also while the
        // queue is being drained: all arrive once, in order, to every subscriber.
        let subject = PublishSubject<Int>()
        let otherThreadDone = Locked(false)
        let first = EventRecorder<Int> { event in
            guard event.element == 0 else { return }
            let done = runOnOtherThread {
                for value in 1...3000 { subject.onNext(value) }
            }
            otherThreadDone.withLock { $0 = done }
            for value in 3001...4000 { subject.onNext(value) }  // re-entrant: queued too
        }
        let second = EventRecorder<Int>()
        _ = subject.subscribe(first)
        _ = subject.subscribe(second)
        subject.onNext(0)

        #expect(otherThreadDone.value)
        #expect(first.elements.elementsEqual(0...4000))
        #expect(second.elements.elementsEqual(0...4000))
    }

    // MARK: - Memory

    @Test func disposingASubscriptionReleasesTheObserver() {
        let subject = PublishSubject<Int>()
        var recorder: EventRecorder<Int>? = EventRecorder()
        let weak = WeakBox(recorder)
        let subscription = subject.subscribe(recorder!)
        recorder = nil
        #expect(weak.object != nil)
        subscription.dispose()
        #expect(weak.object == nil)
    }

    @Test func disposingInsideOnNextReleasesTheObserverOnceTheDeliveryIsOver() {
        let subject = PublishSubject<Int>()
        let slot = DisposableSlot()
        var recorder: EventRecorder<Int>? = EventRecorder { _ in slot.dispose() }
        let weak = WeakBox(recorder)
        slot.set(subject.subscribe(recorder!))  // the slot keeps the subscription
        recorder = nil
        subject.onNext(1)
        #expect(weak.object == nil)
    }

    @Test func completionReleasesTheObserversOfKeptSubscriptions() {
        let subject = PublishSubject<Int>()
        var recorder: EventRecorder<Int>? = EventRecorder()
        let weak = WeakBox(recorder)
        let subscription = subject.subscribe(recorder!)
        recorder = nil
        subject.onCompleted()
        #expect(weak.object == nil)
        subscription.dispose()
    }

    @Test func disposingTheSubjectReleasesTheObserversOfKeptSubscriptions() {
        let subject = PublishSubject<Int>()
        var recorder: EventRecorder<Int>? = EventRecorder()
        let weak = WeakBox(recorder)
        let subscription = subject.subscribe(recorder!)
        recorder = nil
        subject.dispose()
        #expect(weak.object == nil)
        subscription.dispose()
    }

    @Test func forgottenSubjectAndSubscriptionAreFreed() {
        var subject: PublishSubject<Int>? = PublishSubject()
        let weakSubject = WeakBox(subject)
        var recorder: EventRecorder<Int>? = EventRecorder()
        let weakRecorder = WeakBox(recorder)
        _ = subject!.subscribe(recorder!)
        subject = nil
        recorder = nil
        #expect(weakSubject.object == nil)
        #expect(weakRecorder.object == nil)
    }

    @Test func subscriptionDoesNotKeepTheSubjectAlive() {
        var subject: PublishSubject<Int>? = PublishSubject()
        let weakSubject = WeakBox(subject)
        let subscription = subject!.subscribe(onNext: { _ in })
        subject = nil
        #expect(weakSubject.object == nil)
        subscription.dispose()
    }

    @Test func observerFreedOnDisposeOrCompletionMayUseTheSubjectFromItsDeinit() {
        let subject = PublishSubject<Int>()
        let deinits = Locked(0)
        var subscription: (any Disposable)? = subject.subscribe(
            DeinitObserver<Int> {
                _ = subject.hasObservers  // would deadlock if freed under the subject's lock
                deinits.increment()
            }
        )
        subscription?.dispose()
        subscription = nil
        _ = subject.subscribe(
            DeinitObserver<Int> {
                _ = subject.hasObservers
                deinits.increment()
            }
        )
        subject.onCompleted()
        #expect(deinits.value == 2)
    }

    // MARK: - Observer side

    @Test func asObserverSendsIntoTheSubject() {
        let subject = PublishSubject<Int>()
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)
        let observer = subject.asObserver()
        observer.onNext(1)
        observer.onCompleted()
        #expect(recorder.events == [.next(1), .completed])
    }
}

import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct ReplaySubjectTests {
    private static let source: [Recorded<Event<Int>>] = [
        .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .next(410, 6),
        .next(520, 7), .next(580, 8), .next(630, 9), .next(710, 10), .next(870, 11), .next(940, 12),
    ]

    // MARK: - Marble grid

    @Test func newSubscribersGetTheLastBufferedElementsThenLaterEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source)
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        let subscriptions = (DisposableSlot(), DisposableSlot(), DisposableSlot())
        let results = (
            scheduler.createObserver(Int.self), scheduler.createObserver(Int.self), scheduler.createObserver(Int.self)
        )
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(300) { subscriptions.0.set(subject.subscribe(results.0)) }
        scheduler.scheduleAt(400) { subscriptions.1.set(subject.subscribe(results.1)) }
        scheduler.scheduleAt(900) { subscriptions.2.set(subject.subscribe(results.2)) }
        scheduler.scheduleAt(600) { subscriptions.0.dispose() }
        scheduler.scheduleAt(700) { subscriptions.1.dispose() }
        scheduler.scheduleAt(950) { subscriptions.2.dispose() }
        scheduler.start()

        #expect(
            results.0.events == [
                .next(300, 3), .next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7), .next(580, 8),
            ]
        )
        #expect(
            results.1.events == [
                .next(400, 3), .next(400, 4), .next(400, 5), .next(410, 6), .next(520, 7), .next(580, 8), .next(630, 9),
            ]
        )
        #expect(results.2.events == [.next(900, 9), .next(900, 10), .next(900, 11), .next(940, 12)])
    }

    @Test func unboundedSubjectReplaysEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.source)
        let subject = ReplaySubject<Int>.createUnbounded()
        let results = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(500) { _ = subject.subscribe(results) }
        scheduler.start()

        #expect(
            results.events == [
                .next(500, 3), .next(500, 4), .next(500, 5), .next(500, 6),
                .next(520, 7), .next(580, 8), .next(630, 9), .next(710, 10), .next(870, 11), .next(940, 12),
            ]
        )
    }

    @Test func completedSubjectReplaysTheBufferThenCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        let results = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(results) }
        scheduler.start()

        #expect(results.events == [.next(400, 2), .next(400, 3), .completed(400)])
    }

    @Test func failedSubjectReplaysTheBufferThenTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(300, TestError(3))])
        let subject = ReplaySubject<Int>.create(bufferSize: 5)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(215) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        #expect(early.events == [.next(215, 1), .next(220, 2), .error(300, TestError(3))])
        #expect(late.events == [.next(400, 1), .next(400, 2), .error(400, TestError(3))])
    }

    @Test func neverEndingEmptySourceReplaysNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        let results = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(results) }
        scheduler.start()

        #expect(results.events == [])
        #expect(subject.hasObservers)
    }

    // MARK: - Buffer sizes

    @Test(arguments: [1, 2, 3, 7])
    func bufferKeepsTheLastElementsAcrossWrapArounds(bufferSize: Int) {
        let subject = ReplaySubject<Int>.create(bufferSize: bufferSize)
        for value in 0..<20 {
            subject.onNext(value)
            let recorder = EventRecorder<Int>()
            subject.subscribe(recorder).dispose()
            #expect(recorder.elements == Array(max(0, value - bufferSize + 1)...value))
        }
    }

    @Test func bufferSizeZeroReplaysOnlyTheTerminalEvent() {
        let subject = ReplaySubject<Int>.create(bufferSize: 0)
        subject.onNext(1)
        let live = EventRecorder<Int>()
        _ = subject.subscribe(live)
        subject.onNext(2)
        subject.onCompleted()
        let late = EventRecorder<Int>()
        _ = subject.subscribe(late)

        #expect(live.events == [.next(2), .completed])
        #expect(late.events == [.completed])
    }

    @Test func negativeBufferSizeActsAsZero() {
        expectMisuse("ReplaySubject.create(bufferSize: -3): the size must not be negative; using 0.") {
            let subject = ReplaySubject<Int>.create(bufferSize: -3)
            subject.onNext(1)
            let recorder = EventRecorder<Int>()
            _ = subject.subscribe(recorder)
            #expect(recorder.events == [])
        }
    }

    // MARK: - Terminal events and disposal

    @Test func eventsAfterCompletionAreIgnoredAndNotBuffered() {
        let subject = ReplaySubject<Int>.create(bufferSize: 5)
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        subject.onError(TestError(1))
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)

        #expect(recorder.events == [.next(1), .completed])
    }

    @Test func disposedSubjectGivesNewSubscribersTheDisposedErrorAndNoReplay() {
        let subject = ReplaySubject<Int>.create(bufferSize: 5)
        subject.onNext(1)
        let early = EventRecorder<Int>()
        _ = subject.subscribe(early)
        subject.dispose()
        subject.onNext(2)
        subject.dispose()
        let late = EventRecorder<Int>()
        _ = subject.subscribe(late)

        #expect(early.events == [.next(1)])
        #expect(late.events == [.error(RxError.disposed(object: "ReplaySubject"))])
        #expect(!subject.hasObservers)
    }

    @Test func disposingAfterTheReplayStopsLiveEvents() {
        let subject = ReplaySubject<Int>.createUnbounded()
        subject.onNext(1)
        let recorder = EventRecorder<Int>()
        let subscription = subject.subscribe(recorder)
        subject.onNext(2)
        subscription.dispose()
        subject.onNext(3)
        #expect(recorder.elements == [1, 2])
    }

    @Test func subscriberDisposedByAnotherDuringADeliveryGetsNothingMore() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        let victimSubscription = DisposableSlot()
        let killer = EventRecorder<Int> { event in
            if event.element == 1 { victimSubscription.dispose() }
        }
        let victim = EventRecorder<Int>()
        _ = subject.subscribe(killer)
        victimSubscription.set(subject.subscribe(victim))
        subject.onNext(1)
        subject.onNext(2)

        #expect(killer.elements == [1, 2])
        #expect(victim.elements == [])
    }

    // MARK: - Re-entrancy and joining during a delivery

    @Test func subscriberAddedInsideOnNextGetsTheBufferAtOnceAndNoDuplicate() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        let added = EventRecorder<Int>()
        let seenBeforeSubscribeReturned = Locked<[Int]>([])
        let subscribing = EventRecorder<Int> { event in
            if event.element == 2 {
                subject.onNext(3)  // queued, but already in the buffer
                _ = subject.subscribe(added)
                seenBeforeSubscribeReturned.withLock { $0 = added.elements }
                subject.onNext(4)
            }
        }
        subject.onNext(1)
        _ = subject.subscribe(subscribing)
        subject.onNext(2)

        #expect(seenBeforeSubscribeReturned.value == [1, 2, 3])
        #expect(added.elements == [1, 2, 3, 4])
        #expect(subscribing.elements == [1, 2, 3, 4])
    }

    @Test func subscriberJoiningWhileAnotherThreadDeliversGetsTheBufferOnceThenLaterEvents() {
        let subject = ReplaySubject<Int>.createUnbounded()
        let joined = EventRecorder<Int>()
        let joinReturned = Locked(false)
        let blocker = EventRecorder<Int> { event in
            guard event.element == 1 else { return }
            let returned = runOnOtherThread {
                subject.onNext(2)
                _ = subject.subscribe(joined)
                subject.onNext(3)
            }
            joinReturned.withLock { $0 = returned }
        }
        _ = subject.subscribe(blocker)
        subject.onNext(1)

        #expect(joinReturned.value)
        #expect(blocker.elements == [1, 2, 3])
        #expect(joined.elements == [1, 2, 3])
        #expect(joined.overlaps == 0)
    }

    @Test func reentrantCompletionIsDeliveredAfterTheCurrentEvent() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        let first = EventRecorder<Int> { event in
            if event.element == 1 { subject.onCompleted() }
        }
        let second = EventRecorder<Int>()
        _ = subject.subscribe(first)
        _ = subject.subscribe(second)
        subject.onNext(1)

        #expect(first.events == [.next(1), .completed])
        #expect(second.events == [.next(1), .completed])
    }

    // MARK: - Memory

    @Test func completionReleasesTheObserversOfKeptSubscriptions() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        var recorder: EventRecorder<Int>? = EventRecorder()
        let weak = WeakBox(recorder)
        let subscription = subject.subscribe(recorder!)
        recorder = nil
        subject.onCompleted()
        #expect(weak.object == nil)
        subscription.dispose()
    }

    @Test func evictedAndDisposedElementsMayUseTheSubjectFromTheirDeinit() {
        let freed = Locked(0)
        let subject = ReplaySubject<DeinitProbe>.create(bufferSize: 1)
        let probe = {
            DeinitProbe {
                _ = subject.hasObservers
                freed.increment()
            }
        }
        subject.onNext(probe())
        subject.onNext(probe())  // evicts the first: freed outside the lock
        #expect(freed.value == 1)
        subject.dispose()  // frees the buffer: outside the lock
        #expect(freed.value == 2)
    }

    @Test func asObserverSendsIntoTheSubject() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        subject.asObserver().onNext(8)
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)
        #expect(recorder.elements == [8])
    }
}

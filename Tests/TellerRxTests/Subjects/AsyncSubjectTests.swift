import TellerRx
import TellerTesting
import Testing

@Suite struct AsyncSubjectTests {
    // MARK: - Marble grid

    @Test func subscribersGetOnlyTheLastElementWhenTheSubjectCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .completed(400),
        ])
        let subject = AsyncSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(250) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(500) { _ = subject.subscribe(late) }
        scheduler.start()

        #expect(early.events == [.next(400, 5), .completed(400)])
        #expect(late.events == [.next(500, 5), .completed(500)])
    }

    @Test func emptySubjectCompletesWithoutAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let subject = AsyncSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(250) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(500) { _ = subject.subscribe(late) }
        scheduler.start()

        #expect(early.events == [.completed(300)])
        #expect(late.events == [.completed(500)])
    }

    @Test func errorIsSentWithoutTheLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(300, TestError(4))])
        let subject = AsyncSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(250) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(500) { _ = subject.subscribe(late) }
        scheduler.start()

        #expect(early.events == [.error(300, TestError(4))])
        #expect(late.events == [.error(500, TestError(4))])
    }

    @Test func neverEndingSubjectSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let subject = AsyncSubject<Int>()
        let results = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(250) { _ = subject.subscribe(results) }
        scheduler.start()

        #expect(results.events == [])
        #expect(subject.hasObservers)
    }

    @Test func subscriberDisposedBeforeCompletionGetsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let subject = AsyncSubject<Int>()
        let results = scheduler.createObserver(Int.self)
        let subscription = DisposableSlot()
        scheduler.scheduleAt(200) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(250) { subscription.set(subject.subscribe(results)) }
        scheduler.scheduleAt(280) { subscription.dispose() }
        scheduler.start()

        #expect(results.events == [])
    }

    // MARK: - Edge cases

    @Test func eventsAfterTheEndAreIgnored() {
        let subject = AsyncSubject<Int>()
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        subject.onCompleted()
        subject.onError(TestError(1))
        let late = EventRecorder<Int>()
        _ = subject.subscribe(late)

        #expect(recorder.events == [.next(1), .completed])
        #expect(late.events == [.next(1), .completed])
        #expect(!subject.hasObservers)
    }

    @Test func subscriberDisposingOnTheElementDoesNotGetCompleted() {
        let subject = AsyncSubject<Int>()
        let slot = DisposableSlot()
        let recorder = EventRecorder<Int> { _ in slot.dispose() }
        slot.set(subject.subscribe(recorder))
        subject.onNext(1)
        subject.onCompleted()

        #expect(recorder.events == [.next(1)])
    }

    @Test func reentrantEventsAfterTheEndAreIgnoredAndDeliveryStaysSerialized() {
        // The element and `completed` must reach each subscriber together, in order, even when
        // a subscriber re-enters the subject.
        let subject = AsyncSubject<Int>()
        let first = EventRecorder<Int> { event in
            if event.element == 2 {
                subject.onNext(3)  // ignored: already ended
                subject.onCompleted()
            }
        }
        let second = EventRecorder<Int>()
        _ = subject.subscribe(first)
        _ = subject.subscribe(second)
        subject.onNext(2)
        subject.onCompleted()

        #expect(first.events == [.next(2), .completed])
        #expect(second.events == [.next(2), .completed])
        #expect(first.overlaps == 0 && second.overlaps == 0)
    }

    @Test func completionReleasesTheObserversOfKeptSubscriptions() {
        let subject = AsyncSubject<Int>()
        var recorder: EventRecorder<Int>? = EventRecorder()
        let weak = WeakBox(recorder)
        let subscription = subject.subscribe(recorder!)
        recorder = nil
        subject.onNext(1)
        subject.onCompleted()
        #expect(weak.object == nil)
        subscription.dispose()
    }

    @Test func asObserverSendsIntoTheSubject() {
        let subject = AsyncSubject<Int>()
        let recorder = EventRecorder<Int>()
        _ = subject.subscribe(recorder)
        let observer = subject.asObserver()
        observer.onNext(3)
        observer.onCompleted()
        #expect(recorder.events == [.next(3), .completed])
    }
}

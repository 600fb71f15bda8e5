import TellerRx
import TellerTesting
import Testing

@Suite struct PublishRelayTests {
    @Test func acceptedElementsReachCurrentSubscribersOnly() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let subscription = DisposableSlot()
        scheduler.scheduleAt(200) { subscription.set(relay.subscribe(early)) }
        scheduler.scheduleAt(150) { relay.accept(1) }
        scheduler.scheduleAt(250) { relay.accept(2) }
        scheduler.scheduleAt(300) { _ = relay.subscribe(late) }
        scheduler.scheduleAt(350) { relay.accept(3) }
        scheduler.scheduleAt(400) { subscription.dispose() }
        scheduler.scheduleAt(450) { relay.accept(4) }
        scheduler.start()

        #expect(early.events == [.next(250, 2), .next(350, 3)])
        #expect(late.events == [.next(350, 3), .next(450, 4)])
    }

    @Test func asObservableNeverEnds() {
        let relay = PublishRelay<Int>()
        let recorder = EventRecorder<Int>()
        _ = relay.asObservable().subscribe(recorder)
        relay.accept(1)
        relay.accept(2)
        #expect(recorder.events == [.next(1), .next(2)])
    }

    @Test func acceptFromInsideASubscriberIsDeliveredInOrderToAll() {
        let relay = PublishRelay<Int>()
        let first = EventRecorder<Int> { event in
            if event.element == 1 { relay.accept(2) }
        }
        let second = EventRecorder<Int>()
        _ = relay.subscribe(first)
        _ = relay.subscribe(second)
        relay.accept(1)
        #expect(first.elements == [1, 2])
        #expect(second.elements == [1, 2])
    }
}

@Suite struct BehaviorRelayTests {
    @Test func subscribersGetTheCurrentValueThenAcceptedElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 0)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = relay.subscribe(early) }
        scheduler.scheduleAt(250) { relay.accept(1) }
        scheduler.scheduleAt(300) { _ = relay.subscribe(late) }
        scheduler.scheduleAt(350) { relay.accept(2) }
        scheduler.start()

        #expect(early.events == [.next(200, 0), .next(250, 1), .next(350, 2)])
        #expect(late.events == [.next(300, 1), .next(350, 2)])
    }

    @Test func valueIsTheLatestAcceptedElement() {
        let relay = BehaviorRelay(value: "a")
        #expect(relay.value == "a")
        relay.accept("b")
        #expect(relay.value == "b")
    }

    @Test func asObservableStartsWithTheCurrentValue() {
        let relay = BehaviorRelay(value: 5)
        let recorder = EventRecorder<Int>()
        _ = relay.asObservable().subscribe(recorder)
        relay.accept(6)
        #expect(recorder.events == [.next(5), .next(6)])
    }

    @Test func acceptFromInsideASubscriberIsDeliveredInOrderToAll() {
        let relay = BehaviorRelay(value: 0)
        let first = EventRecorder<Int> { event in
            if event.element == 1 { relay.accept(relay.value + 1) }
        }
        let second = EventRecorder<Int>()
        _ = relay.subscribe(first)
        _ = relay.subscribe(second)
        relay.accept(1)
        #expect(first.elements == [0, 1, 2])
        #expect(second.elements == [0, 1, 2])
        #expect(relay.value == 2)
    }
}

@Suite struct ReplayRelayTests {
    @Test func newSubscribersGetTheBufferedElements() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        relay.accept(1)
        relay.accept(2)
        relay.accept(3)
        let recorder = EventRecorder<Int>()
        _ = relay.subscribe(recorder)
        relay.accept(4)
        #expect(recorder.events == [.next(2), .next(3), .next(4)])
    }

    @Test func unboundedRelayReplaysEverything() {
        let relay = ReplayRelay<Int>.createUnbounded()
        for value in 1...5 { relay.accept(value) }
        let recorder = EventRecorder<Int>()
        _ = relay.asObservable().subscribe(recorder)
        #expect(recorder.elements == [1, 2, 3, 4, 5])
    }
}

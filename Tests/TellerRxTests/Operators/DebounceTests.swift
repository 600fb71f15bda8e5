import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct DebounceTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func elementsFurtherApartThanTheDueTimeAllPassLate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(200, 2), .next(250, 3), .next(300, 4), .next(350, 5), .next(400, 6),
            .next(450, 7), .next(500, 8), .completed(550),
        ])
        let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
        #expect(
            res.events == [
                .next(290, 3), .next(340, 4), .next(390, 5), .next(440, 6), .next(490, 7), .next(540, 8),
                .completed(550),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test func onlyTheLastOfABurstIsSentAfterTheQuietPeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(215, 2), .next(220, 3), .next(300, 4), .next(309, 5), .completed(400),
        ])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        #expect(res.events == [.next(230, 3), .next(319, 5), .completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test func completionSendsThePendingElementFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(220, 2), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func errorDropsThePendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .error(220, TestError(1))])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func errorAfterAQuietPeriodFollowsTheElementSent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, TestError(1))])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(230, 1), .error(300, TestError(1))])
    }

    @Test func disposingEarlyCancelsThePendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(400)])
        let res = scheduler.start(disposed: 260) { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(230, 1)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func zeroDueTimeSendsEachElementOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.debounce(.seconds(0), scheduler: scheduler) }
        #expect(res.events == [.next(211, 1), .next(221, 2), .completed(300)])
    }

    @Test func elementFromAReentrantSourceRestartsTheQuietPeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = subject.debounce(.seconds(10), scheduler: scheduler).subscribe { event in
                observer.on(event)
                // Sending from inside delivery (on the timer's thread) is serialized.
                if case .next(1) = event { subject.onNext(2) }
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.start()
        #expect(observer.events == [.next(220, 1), .next(230, 2)])
    }

    @Test func debounceOnARealQueueSendsTheLastElementOfABurst() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "debounce")
        let values = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.debounce(.milliseconds(20), scheduler: scheduler).subscribe(
            onNext: { values.append($0) },
            onCompleted: { done.signal() }
        )
        let sent = DispatchSemaphore(value: 0)
        let lastSeen = DispatchSemaphore(value: 0)
        let waiter = subject.debounce(.milliseconds(20), scheduler: scheduler).subscribe(onNext: { _ in
            lastSeen.signal()
        })
        DispatchQueue.global().async {
            for value in 0..<100 { subject.onNext(value) }
            sent.signal()
        }
        #expect(sent.waitOrTimeOut())
        #expect(lastSeen.waitOrTimeOut())
        subject.onCompleted()
        #expect(done.waitOrTimeOut())
        // The burst took far less than the quiet period on any sane machine, but if the sender was
        // descheduled mid-burst an earlier element may pass too: only the last one is certain.
        #expect(values.value.last == 99)
        #expect(values.value == values.value.sorted())
        subscription.dispose()
        waiter.dispose()
    }
}

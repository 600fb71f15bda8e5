import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct TakeForDurationTests {
    @Test func neverSourceCompletesWhenTheDurationEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func zeroDurationCompletesOneTickAfterSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.take(for: .seconds(0), scheduler: scheduler) }
        #expect(res.events == [.completed(201)])
        #expect(xs.subscriptions == [Subscription(200, 201)])
    }

    @Test func passesElementsUntilTheDurationEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(225)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    @Test func sourceCompletingFirstEndsTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func sourceErrorPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.error(210, TestError(1))]))
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        #expect(res.events == [.error(210, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func disposingEarlyCancelsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start(disposed: 215) { xs.take(for: .seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 215)])
    }

    @Test func chainedTakesEndAtTheShorterDuration() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(270),
        ])
        let res = scheduler.start {
            xs.take(for: .seconds(55), scheduler: scheduler).take(for: .seconds(35), scheduler: scheduler)
        }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(235)])
        #expect(xs.subscriptions == [Subscription(200, 235)])
    }

    @Test func takeForOnARealQueueCompletesOnItsQueue() {
        let marker = QueueMarker(label: "take-for.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "take-for")
        let completedOnQueue = Locked(false)
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable<Int>.never()
            .take(for: .milliseconds(5), scheduler: scheduler)
            .subscribe(onCompleted: {
                completedOnQueue.withLock { $0 = marker.isCurrent }
                done.signal()
            })
        #expect(done.waitOrTimeOut())
        #expect(completedOnQueue.value)
        subscription.dispose()
    }
}

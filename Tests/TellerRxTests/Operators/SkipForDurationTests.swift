import Dispatch
import TellerRx
import TellerTesting
import Testing

@Suite struct SkipForDurationTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.skip(for: .seconds(50), scheduler: scheduler) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func zeroDurationDropsNothingAfterTheFirstTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.skip(for: .seconds(0), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func dropsElementsSentDuringTheDuration() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.skip(for: .seconds(15), scheduler: scheduler) }
        #expect(res.events == [.next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func completionDuringTheDurationPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.skip(for: .seconds(50), scheduler: scheduler) }
        #expect(res.events == [.completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func errorDuringTheDurationPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.error(210, TestError(1))]))
        let res = scheduler.start { xs.skip(for: .seconds(50), scheduler: scheduler) }
        #expect(res.events == [.error(210, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(280, 3)])
        let res = scheduler.start(disposed: 270) { xs.skip(for: .seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(260, 2)])
        #expect(xs.subscriptions == [Subscription(200, 270)])
    }

    @Test func chainedSkipsDropForTheLongerDuration() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(270),
        ])
        let res = scheduler.start {
            xs.skip(for: .seconds(15), scheduler: scheduler).skip(for: .seconds(30), scheduler: scheduler)
        }
        // The outer timer (230) was scheduled after the hot event at 230, which is dropped.
        #expect(res.events == [.next(240, 4), .next(250, 5), .completed(270)])
    }
}

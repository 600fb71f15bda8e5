import TellerRx
import TellerTesting
import Testing

private struct Indexed<Element: Equatable>: Equatable {
    let index: Int
    let element: Element
}

private func indexed<Element: Equatable>(
    _ events: [Recorded<Event<(index: Int, element: Element)>>]
) -> [Recorded<Event<Indexed<Element>>>] {
    events.map { recorded in
        Recorded(time: recorded.time, value: recorded.value.map { Indexed(index: $0.index, element: $0.element) })
    }
}

@Suite struct EnumeratedTests {
    @Test func neverSourceSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<String>>]([.next(150, "a")]))
        let res = scheduler.start { xs.enumerated() }
        #expect(indexed(res.events) == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, "a"), .completed(250)])
        let res = scheduler.start { xs.enumerated() }
        #expect(indexed(res.events) == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func pairsEachElementWithItsIndexFromZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "x"), .next(210, "a"), .next(220, "b"), .next(230, "c"), .completed(300),
        ])
        let res = scheduler.start { xs.enumerated() }
        #expect(
            indexed(res.events) == [
                .next(210, Indexed(index: 0, element: "a")),
                .next(220, Indexed(index: 1, element: "b")),
                .next(230, Indexed(index: 2, element: "c")),
                .completed(300),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func forwardsTheSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, TestError(1))])
        let res = scheduler.start { xs.enumerated() }
        #expect(indexed(res.events) == [.next(210, Indexed(index: 0, element: "a")), .error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlyStopsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(240, "b"), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.enumerated() }
        #expect(indexed(res.events) == [.next(210, Indexed(index: 0, element: "a"))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func everySubscriptionCountsFromZero() {
        let numbers = Observable.of(5, 6).enumerated().map { $0.index }
        #expect(synchronousEvents(numbers) == [.next(0), .next(1), .completed])
        #expect(synchronousEvents(numbers) == [.next(0), .next(1), .completed])
    }

    @Test func stopsAnInfiniteSynchronousSourceWithTake() {
        let events = synchronousEvents(Observable.repeatElement("a").enumerated().map { $0.index }.take(3))
        #expect(events == [.next(0), .next(1), .next(2), .completed])
    }
}

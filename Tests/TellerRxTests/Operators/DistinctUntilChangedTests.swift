import TellerRx
import TellerTesting
import Testing

@Suite struct DistinctUntilChangedTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func dropsConsecutiveDuplicatesOnly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(215, 3), .next(220, 3), .next(225, 2), .next(230, 2), .next(235, 1),
            .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 2), .next(215, 3), .next(225, 2), .next(235, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func firstElementIsAlwaysSent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 2), .next(210, 2), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 2), .completed(250)])
    }

    @Test func comparesKeysFromTheKeySelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2), .next(220, 4), .next(230, 3), .next(240, 5), .next(245, 6), .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged { $0 % 2 } }
        #expect(res.events == [.next(210, 2), .next(230, 3), .next(245, 6), .completed(250)])
    }

    @Test func comparerComparesWithTheLastElementSentNotTheLastReceived() {
        // "Equal" when within 1 of each other: 1 ~ 2 and 2 ~ 3, but 1 and 3 are not.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { abs($0 - $1) <= 1 } }
        #expect(res.events == [.next(210, 1), .next(230, 3), .completed(250)])
    }

    @Test func keySelectorWithComparer() {
        let events = synchronousEvents(
            Observable.of("a", "A", "b", "B", "a").distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 })
        )
        #expect(events == [.next("a"), .next("b"), .next("a"), .completed])
    }

    @Test func keyPathComparesThePropertyAtThePath() {
        struct User: Sendable, Equatable {
            let name: String
            let age: Int
        }
        let users = [User(name: "a", age: 1), User(name: "a", age: 2), User(name: "b", age: 2)]
        let events = synchronousEvents(Observable.from(users).distinctUntilChanged(at: \.name))
        #expect(events == [.next(users[0]), .next(users[2]), .completed])
    }

    @Test func forwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .error(250, TestError(1))])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 1), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func errorThrownByKeySelectorIsForwardedAndSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start {
            xs.distinctUntilChanged { value -> Int in
                if value == 2 { throw TestError(2) }
                return value
            }
        }
        #expect(res.events == [.next(210, 1), .error(220, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func errorThrownByComparerIsForwardedAndSourceIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start {
            xs.distinctUntilChanged { (_: Int, _: Int) throws -> Bool in throw TestError(3) }
        }
        #expect(res.events == [.next(210, 1), .error(220, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlyStopsDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }
}

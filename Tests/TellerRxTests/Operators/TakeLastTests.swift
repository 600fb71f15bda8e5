import TellerRx
import TellerTesting
import Testing

@Suite struct TakeLastTests {
    @Test func neverSourceSendsNothingAndStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.takeLast(2) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.takeLast(2) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sendsTheLastElementsInOrderAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .next(245, 6), .completed(250),
        ])
        let res = scheduler.start { xs.takeLast(3) }
        #expect(res.events == [.next(250, 4), .next(250, 5), .next(250, 6), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test(arguments: 0...7)
    func keepsExactlyTheLastCountElements(count: Int) {
        let source = Array(1...5)
        let events = synchronousEvents(Observable.from(source).takeLast(count))
        #expect(events == source.suffix(count).map { Event.next($0) } + [.completed])
    }

    @Test func sourceShorterThanCountSendsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.takeLast(5) }
        #expect(res.events == [.next(250, 2), .next(250, 3), .completed(250)])
    }

    @Test func zeroSendsOnlyCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.takeLast(0) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func negativeCountFailsWithArgumentOutOfRange() {
        expectMisuse("takeLast(_:) was called with a negative count (-1); it fails with argumentOutOfRange.") {
            let events = synchronousEvents(Observable.of(1, 2).takeLast(-1))
            #expect(events == [.error(RxError.argumentOutOfRange)])
        }
    }

    @Test func sourceErrorIsForwardedAndTheBufferDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .error(250, TestError(1))])
        let res = scheduler.start { xs.takeLast(2) }
        #expect(res.events == [.error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlySendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.takeLast(2) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}

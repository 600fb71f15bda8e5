@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// Fails once, then succeeds with 1, then 2; counts the sources it makes.
private struct CountingSources: Sequence, Sendable {
    let made: Locked<Int>

    func makeIterator() -> AnyIterator<Observable<Int>> {
        var index = 0
        return AnyIterator {
            defer { index += 1 }
            guard index < 3 else { return nil }
            made.increment()
            return index < 1 ? Observable.error(TestError(index)) : Observable.just(index)
        }
    }
}

@Suite struct CatchSequenceTests {
    @Test func emptySequenceCompletesAtOnce() {
        #expect(synchronousEvents(Observable<Int>.catch(sequence: [Observable<Int>]())) == [.completed])
    }

    @Test func neverFirstSourceSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let ys = scheduler.createHotObservable([.next(250, 2), .completed(300)])
        let res = scheduler.start { Observable.catch(sequence: [xs.asObservable(), ys.asObservable()]) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
        #expect(ys.subscriptions == [])
    }

    @Test func completingFirstSourceEndsTheResultWithoutTryingTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(230)])
        let ys = scheduler.createHotObservable([.next(240, 3), .completed(250)])
        let res = scheduler.start { Observable.catch(sequence: [xs.asObservable(), ys.asObservable()]) }
        #expect(res.events == [.next(210, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [])
    }

    @Test func failingSourceIsReplacedByTheNextOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 2), .error(20, TestError(2))])
        let zs = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start {
            Observable.catch(sequence: [xs.asObservable(), ys.asObservable(), zs.asObservable()])
        }
        #expect(res.events == [.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(220, 240)])
        #expect(zs.subscriptions == [Subscription(240, 260)])
    }

    @Test func lastSourcesErrorIsSentWhenEveryOneFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let ys = scheduler.createColdObservable([.error(5, TestError(2), Int.self)])
        let res = scheduler.start { Observable.catch(sequence: [xs.asObservable(), ys.asObservable()]) }
        #expect(res.events == [.next(210, 1), .error(225, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(220, 225)])
    }

    @Test func disposingEarlyDisposesTheCurrentAttempt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(100)])
        let res = scheduler.start(disposed: 235) {
            Observable.catch(sequence: [xs.asObservable(), ys.asObservable()])
        }
        #expect(res.events == [.next(210, 1), .next(230, 2)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(220, 235)])
    }

    @Test func synchronousFailuresAreRetriedInALoopNotRecursively() {
        // Deep enough that recursion would overflow the stack.
        let failures = repeatElement(Observable<Int>.error(TestError(1)), count: 100_000)
        let events = synchronousEvents(Observable.catch(sequence: Array(failures) + [Observable.just(7)]))
        #expect(events == [.next(7), .completed])
    }

    @Test func sequenceIsIteratedLazilyPerSubscription() {
        let made = Locked(0)
        let observable = Observable.catch(sequence: CountingSources(made: made))
        #expect(made.value == 0)
        #expect(synchronousEvents(observable) == [.next(1), .completed])
        #expect(made.value == 2)
        #expect(synchronousEvents(observable) == [.next(1), .completed])
        #expect(made.value == 4)
    }
}

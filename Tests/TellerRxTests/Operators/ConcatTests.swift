@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct ConcatTests {
    @Test func neverFirstSourceNeverSubscribesTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.concat(ys) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
        #expect(ys.subscriptions == [])
    }

    @Test func emptySourcesCompleteAfterTheLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.completed(30)])
        let ys = scheduler.createColdObservable([Recorded<Event<Int>>.completed(20)])
        let res = scheduler.start { xs.concat(ys) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 250)])
    }

    @Test func emptyListCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.concat([Observable<Int>]()) }
        #expect(res.events == [.completed(200)])
    }

    @Test func subscribesEachSourceWhenThePreviousOneCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let ys = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let zs = scheduler.createColdObservable([.next(5, 4), .completed(10)])
        let res = scheduler.start { Observable.concat(xs.asObservable(), ys.asObservable(), zs.asObservable()) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(240, 3), .next(255, 4), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 250)])
        #expect(zs.subscriptions == [Subscription(250, 260)])
    }

    @Test func errorEndsAtOnceAndLaterSourcesAreNeverSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.concat([xs.asObservable(), ys.asObservable()]) }
        #expect(res.events == [.next(210, 1), .error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [])
    }

    @Test func disposingEarlyDisposesTheCurrentSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(10, 3), .next(40, 4), .completed(50)])
        let res = scheduler.start(disposed: 240) { xs.concat(ys) }
        #expect(res.events == [.next(210, 1), .next(230, 3)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(220, 240)])
    }

    @Test func aSequenceIsIteratedLazilyOncePerSubscription() {
        let sources = CountingSources(count: 3)
        let concatenated = Observable.concat(sources)
        #expect(sources.iterations.value == 0)
        let first = Locked<[Int]>([])
        let second = Locked<[Int]>([])
        _ = concatenated.subscribe(onNext: { first.append($0) })
        _ = concatenated.subscribe(onNext: { second.append($0) })
        #expect(first.value == [1, 2, 3])
        #expect(second.value == [1, 2, 3])
        #expect(sources.iterations.value == 2)
    }

    @Test func manySynchronousSourcesDoNotDeepenTheStack() {
        let count = Locked(0)
        let completed = Locked(false)
        let subscription = Observable.concat(Array(repeating: Observable.just(1), count: 50_000))
            .subscribe(onNext: { _ in count.increment() }, onCompleted: { completed.withLock { $0 = true } })
        #expect(count.value == 50_000)
        #expect(completed.value)
        subscription.dispose()
    }

    @Test func observableOfObservablesIsConcatenatedInArrivalOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(40)])
        let ys2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let xs = scheduler.createHotObservable([
            .next(210, ys1.asObservable()), .next(220, ys2.asObservable()), .completed(230),
        ])
        let res = scheduler.start { xs.concat() }
        #expect(res.events == [.next(220, 1), .next(260, 2), .completed(270)])
        #expect(ys1.subscriptions == [Subscription(210, 250)])
        #expect(ys2.subscriptions == [Subscription(250, 270)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }
}

/// A Sendable sequence of `just` sources that counts how often it is iterated.
private struct CountingSources: Sequence, Sendable {
    let count: Int
    let iterations = Locked(0)

    func makeIterator() -> AnyIterator<Observable<Int>> {
        iterations.increment()
        var next = 0
        let count = count
        return AnyIterator {
            next += 1
            return next <= count ? Observable.just(next) : nil
        }
    }
}

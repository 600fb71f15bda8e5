@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct ShareTests {
    // MARK: - The single-subscriber grid

    @Test func neverSourceStaysSubscribedUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.share() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.share(replay: 1) }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func valuesPassThroughThenCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.share(replay: 2, scope: .forever) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(300, TestError(1))])
        let res = scheduler.start { xs.share() }
        #expect(res.events == [.next(210, 2), .error(300, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func disposingTheOnlySubscriberDisconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(290, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.share(replay: 1) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    // MARK: - Late subscribers, refcounting, reconnection

    /// RxSwift's scenario: two overlapping subscribers, then a third after everyone left.
    private func runThreeSubscribers(
        replay: Int,
        scope: SubjectLifetimeScope,
        events: [Recorded<Event<Int>>]
    ) -> (
        xs: TestableObservable<Int>, first: [Recorded<Event<Int>>], second: [Recorded<Event<Int>>],
        third: [Recorded<Event<Int>>]
    ) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        let ys = xs.share(replay: replay, scope: scope)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let third = scheduler.createObserver(Int.self)
        scheduler.subscribe(ys, first, at: 200, disposeAt: 350)
        scheduler.subscribe(ys, second, at: 300, disposeAt: 400)
        scheduler.subscribe(ys, third, at: 500, disposeAt: 600)
        scheduler.start()
        return (xs, first.events, second.events, third.events)
    }

    private static let sixThenSeven: [Recorded<Event<Int>>] = [
        .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6), .next(550, 7),
    ]

    @Test func defaultsShareWithoutReplayWhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.sixThenSeven)
        let ys = xs.share()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let third = scheduler.createObserver(Int.self)
        scheduler.subscribe(ys, first, at: 200, disposeAt: 350)
        scheduler.subscribe(ys, second, at: 300, disposeAt: 400)
        scheduler.subscribe(ys, third, at: 500, disposeAt: 600)
        scheduler.start()
        #expect(second.events == [.next(320, 6)])
        #expect(third.events == [.next(550, 7)])
        #expect(xs.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
    }

    @Test(arguments: 0..<5)
    func foreverReplaysTheLatestElementsToLateSubscribersEvenAcrossReconnection(replay: Int) {
        let run = runThreeSubscribers(replay: replay, scope: .forever, events: Self.sixThenSeven)
        #expect(run.first.compactMap(\.value.element) == [1, 2, 3, 4, 5, 6])
        let replayedAt300 = (0..<replay).map { Recorded.next(300, 6 - replay + $0) }
        #expect(run.second == replayedAt300 + [.next(320, 6)])
        // The buffer outlived the connection: the third subscriber gets stale elements first.
        let replayedAt500 = (0..<replay).map { Recorded.next(500, 7 - replay + $0) }
        #expect(run.third == replayedAt500 + [.next(550, 7)])
        #expect(run.xs.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
    }

    @Test(arguments: 0..<5)
    func whileConnectedReplaysOnlyWithinOneConnection(replay: Int) {
        let run = runThreeSubscribers(replay: replay, scope: .whileConnected, events: Self.sixThenSeven)
        let replayedAt300 = (0..<replay).map { Recorded.next(300, 6 - replay + $0) }
        #expect(run.second == replayedAt300 + [.next(320, 6)])
        // The connection ended at 400 and took the buffer with it.
        #expect(run.third == [.next(550, 7)])
        #expect(run.xs.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
    }

    @Test func replayBufferKeepsTheLatestNInOrderAfterWrapping() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.sixThenSeven)
        let ys = xs.share(replay: 3)
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.subscribe(ys, first, at: 200)
        scheduler.subscribe(ys, late, at: 330)
        scheduler.start()
        #expect(late.events == [.next(330, 4), .next(330, 5), .next(330, 6), .next(550, 7)])
    }

    @Test func replayLargerThanTheElementsSoFarReplaysAllOfThem() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.sixThenSeven)
        let ys = xs.share(replay: 100)
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.subscribe(ys, first, at: 200)
        scheduler.subscribe(ys, late, at: 225)
        scheduler.start()
        #expect(
            late.events == [
                .next(225, 1), .next(225, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6), .next(550, 7),
            ]
        )
    }

    // MARK: - After the source ends

    /// Subscribers that resubscribe from inside the terminal event, as in RxSwift's tests.
    private func runResubscribingFromTerminal(
        replay: Int,
        scope: SubjectLifetimeScope,
        terminal: Recorded<Event<Int>>
    ) -> (xs: TestableObservable<Int>, observers: [String: [Recorded<Event<Int>>]]) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(
            [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6), terminal]
                + [.next(340, -1), .next(550, 7)]
        )
        let ys = xs.share(replay: replay, scope: scope)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let firstAgain = scheduler.createObserver(Int.self)
        let secondAgain = scheduler.createObserver(Int.self)
        let third = scheduler.createObserver(Int.self)
        for (observer, again, at, disposeAt) in [(first, firstAgain, 200, 350), (second, secondAgain, 300, 400)] {
            let slot = SubscriptionSlot()
            scheduler.scheduleAt(at) {
                slot.set(
                    ys.subscribe { event in
                        observer.on(event)
                        if event.isStopEvent { slot.set(ys.subscribe(again)) }
                    }
                )
            }
            scheduler.scheduleAt(disposeAt) { slot.dispose() }
        }
        scheduler.subscribe(ys, third, at: 500, disposeAt: 600)
        scheduler.start()
        return (
            xs,
            [
                "first": first.events, "second": second.events, "firstAgain": firstAgain.events,
                "secondAgain": secondAgain.events, "third": third.events,
            ]
        )
    }

    @Test(arguments: 0..<5)
    func foreverGivesEveryLaterSubscriberTheBufferAndTheErrorWithoutResubscribing(replay: Int) {
        let run = runResubscribingFromTerminal(replay: replay, scope: .forever, terminal: .error(330, TestError(1)))
        #expect(
            run.observers["first"] == [
                .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
                .error(330, TestError(1)),
            ]
        )
        let replayedAt330 = (0..<replay).map { Recorded.next(330, 7 - replay + $0) }
        #expect(run.observers["firstAgain"] == replayedAt330 + [.error(330, TestError(1))])
        #expect(run.observers["secondAgain"] == replayedAt330 + [.error(330, TestError(1))])
        let replayedAt500 = (0..<replay).map { Recorded.next(500, 7 - replay + $0) }
        #expect(run.observers["third"] == replayedAt500 + [.error(500, TestError(1))])
        #expect(run.xs.subscriptions == [Subscription(200, 330)])
    }

    @Test(arguments: 0..<5)
    func foreverGivesEveryLaterSubscriberTheBufferAndCompletionWithoutResubscribing(replay: Int) {
        let run = runResubscribingFromTerminal(replay: replay, scope: .forever, terminal: .completed(330))
        let replayedAt330 = (0..<replay).map { Recorded.next(330, 7 - replay + $0) }
        #expect(run.observers["firstAgain"] == replayedAt330 + [.completed(330)])
        #expect(run.observers["secondAgain"] == replayedAt330 + [.completed(330)])
        let replayedAt500 = (0..<replay).map { Recorded.next(500, 7 - replay + $0) }
        #expect(run.observers["third"] == replayedAt500 + [.completed(500)])
        #expect(run.xs.subscriptions == [Subscription(200, 330)])
    }

    @Test(arguments: 0..<5)
    func whileConnectedSubscribesToTheSourceAgainAfterAnError(replay: Int) {
        let run = runResubscribingFromTerminal(
            replay: replay,
            scope: .whileConnected,
            terminal: .error(330, TestError(1))
        )
        let replayedAt300 = (0..<replay).map { Recorded.next(300, 6 - replay + $0) }
        #expect(run.observers["second"] == replayedAt300 + [.next(320, 6), .error(330, TestError(1))])
        // Both resubscribed from the error into one fresh connection with an empty buffer.
        #expect(run.observers["firstAgain"] == [.next(340, -1)])
        #expect(run.observers["secondAgain"] == [.next(340, -1)])
        #expect(run.observers["third"] == [.next(550, 7)])
        #expect(run.xs.subscriptions == [Subscription(200, 330), Subscription(330, 400), Subscription(500, 600)])
    }

    @Test(arguments: 0..<5)
    func whileConnectedSubscribesToTheSourceAgainAfterCompletion(replay: Int) {
        let run = runResubscribingFromTerminal(replay: replay, scope: .whileConnected, terminal: .completed(330))
        #expect(run.observers["firstAgain"] == [.next(340, -1)])
        #expect(run.observers["secondAgain"] == [.next(340, -1)])
        #expect(run.observers["third"] == [.next(550, 7)])
        #expect(run.xs.subscriptions == [Subscription(200, 330), Subscription(330, 400), Subscription(500, 600)])
    }

    @Test func whileConnectedRunsAColdSourceAgainForASubscriberAfterItCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let ys = xs.share(replay: 1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.subscribe(ys, first, at: 200)
        scheduler.subscribe(ys, second, at: 300)
        scheduler.start()
        #expect(first.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(second.events == [.next(310, 1), .next(320, 2), .completed(330)])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(300, 330)])
    }

    @Test func foreverRunsAColdSourceOnceAndReplaysItsEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let ys = xs.share(replay: 1, scope: .forever)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.subscribe(ys, first, at: 200)
        scheduler.subscribe(ys, second, at: 300)
        scheduler.start()
        #expect(second.events == [.next(300, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    // MARK: - Synchronous sources and re-entrancy

    @Test func synchronousSourceDeliversEverythingToTheFirstSubscriberAndReplaysToTheNext() {
        let shared = Observable.of(1, 2, 3).share(replay: 1, scope: .forever)
        let first = RecordingObserver<Int>()
        let second = RecordingObserver<Int>()
        _ = shared.subscribe(first)
        _ = shared.subscribe(second)
        #expect(first.events == [.next(1), .next(2), .next(3), .completed])
        #expect(second.events == [.next(3), .completed])
    }

    @Test func subscriberAddedFromInsideACallbackGetsItsReplayAfterTheCallbackThenLaterEvents() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 2)
        let order = Locked<[String]>([])
        let lateSubscription = SubscriptionSlot()
        _ = shared.subscribe(onNext: { value in
            order.withLock { $0.append("first \(value)") }
            if value == 2 {
                lateSubscription.set(shared.subscribe(onNext: { late in order.withLock { $0.append("late \(late)") } }))
                order.withLock { $0.append("subscribed late") }
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        #expect(
            order.value == ["first 1", "first 2", "subscribed late", "late 1", "late 2", "first 3", "late 3"]
        )
        lateSubscription.dispose()
    }

    @Test func subscriberDisposingItselfDuringASynchronousEmissionDisconnectsTheSource() {
        let source = CountingSource()
        let subject = PublishSubject<Int>()
        let upstream = Observable<Int>.create { observer in
            let counting = source.observable.subscribe()
            let forwarding = subject.subscribe(observer)
            return Disposables.create(counting, forwarding)
        }
        let shared = upstream.share()
        let slot = SubscriptionSlot()
        let received = Locked<[Int]>([])
        slot.set(
            shared.subscribe(onNext: { value in
                received.append(value)
                slot.dispose()
            })
        )
        subject.onNext(1)
        subject.onNext(2)
        #expect(received.value == [1])
        #expect(source.liveSubscriptions == 0)
        #expect(subject.hasObservers == false)
    }

    @Test func retryAfterWhileConnectedShareResubscribesASynchronouslyFailingSourceIteratively() {
        let attempts = Locked(0)
        let source = Observable<Int>.create { observer in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            if attempt < 1_000 {
                observer.onError(TestError(attempt))
            } else {
                observer.onNext(attempt)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        let result = RecordingObserver<Int>()
        _ = source.share(replay: 1).retry().subscribe(result)
        #expect(result.events == [.next(1_000), .completed])
        #expect(attempts.value == 1_000)
    }

    @Test func sharedSourceIsSubscribedOnceForManySubscribers() {
        let source = CountingSource()
        let shared = source.observable.share()
        let subscriptions = (0..<5).map { _ in shared.subscribe() }
        #expect(source.subscriptions == 1)
        for subscription in subscriptions.dropLast() { subscription.dispose() }
        #expect(source.liveSubscriptions == 1)
        subscriptions.last?.dispose()
        #expect(source.liveSubscriptions == 0)
        #expect(source.disposals == 1)
        let again = shared.subscribe()
        #expect(source.subscriptions == 2)
        again.dispose()
    }

    @Test func negativeReplayIsTreatedAsNone() {
        expectMisuse("share(replay: -1) with a negative count; replaying nothing.") {
            let subject = PublishSubject<Int>()
            let shared = subject.share(replay: -1)
            let first = RecordingObserver<Int>()
            let late = RecordingObserver<Int>()
            _ = shared.subscribe(first)
            subject.onNext(1)
            _ = shared.subscribe(late)
            subject.onNext(2)
            #expect(first.elements == [1, 2])
            #expect(late.elements == [2])
        }
    }
}

@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct DoTests {
    /// `do` with every hook logging into `log`, followed by a subscriber that logs too.
    private func logged(_ source: Observable<Int>, _ log: Locked<[String]>) -> Observable<Int> {
        source.do(
            onNext: { value in log.withLock { $0.append("onNext \(value)") } },
            afterNext: { value in log.withLock { $0.append("afterNext \(value)") } },
            onError: { _ in log.withLock { $0.append("onError") } },
            afterError: { _ in log.withLock { $0.append("afterError") } },
            onCompleted: { log.withLock { $0.append("onCompleted") } },
            afterCompleted: { log.withLock { $0.append("afterCompleted") } },
            onSubscribe: { log.withLock { $0.append("onSubscribe") } },
            onSubscribed: { log.withLock { $0.append("onSubscribed") } },
            onDispose: { log.withLock { $0.append("onDispose") } }
        )
    }

    private func subscribe(_ observable: Observable<Int>, _ log: Locked<[String]>) -> any Disposable {
        observable.subscribe(
            onNext: { value in log.withLock { $0.append("next \(value)") } },
            onError: { _ in log.withLock { $0.append("error") } },
            onCompleted: { log.withLock { $0.append("completed") } }
        )
    }

    @Test func hooksRunInOrderAroundEachEventAndDisposal() {
        let log = Locked<[String]>([])
        let subject = PublishSubject<Int>()
        _ = subscribe(logged(subject.asObservable(), log), log)
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        #expect(
            log.value == [
                "onSubscribe", "onSubscribed",
                "onNext 1", "next 1", "afterNext 1",
                "onNext 2", "next 2", "afterNext 2",
                "onCompleted", "completed", "afterCompleted", "onDispose",
            ]
        )
    }

    @Test func hooksRunInOrderAroundAnError() {
        let log = Locked<[String]>([])
        let subject = PublishSubject<Int>()
        _ = subscribe(logged(subject.asObservable(), log), log)
        subject.onError(TestError(1))
        #expect(log.value == ["onSubscribe", "onSubscribed", "onError", "error", "afterError", "onDispose"])
    }

    @Test func onSubscribedRunsAfterEventsASynchronousSourceSentWhileBeingSubscribed() {
        let log = Locked<[String]>([])
        _ = subscribe(logged(.just(1), log), log)
        #expect(
            log.value == [
                "onSubscribe", "onNext 1", "next 1", "afterNext 1", "onCompleted", "completed", "afterCompleted",
                "onSubscribed", "onDispose",
            ]
        )
    }

    @Test func onDisposeRunsOnceWhenTheSubscriberDisposes() {
        let log = Locked<[String]>([])
        let subscription = subscribe(logged(.never(), log), log)
        subscription.dispose()
        subscription.dispose()
        #expect(log.value == ["onSubscribe", "onSubscribed", "onDispose"])
    }

    @Test func eventsPassThroughUnchanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let seen = Locked<[Int]>([])
        let res = scheduler.start { xs.do(onNext: { seen.append($0) }) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(seen.value == [2, 3])
    }

    @Test func neverSourceStaysSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.do() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func errorPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(300, TestError(1))])
        let res = scheduler.start { xs.do(onError: { _ in }) }
        #expect(res.events == [.next(210, 2), .error(300, TestError(1))])
    }

    @Test func disposingEarlyRunsOnDisposeAtThatTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3), .completed(300)])
        let disposedAt = Locked<[Int]>([])
        let res = scheduler.start(disposed: 250) { xs.do(onDispose: { disposedAt.append(scheduler.clock) }) }
        #expect(res.events == [.next(210, 2)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(disposedAt.value == [250])
    }

    @Test func throwingOnNextSendsTheErrorInsteadOfTheElementAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.do(onNext: { if $0 == 2 { throw TestError(2) } })
        }
        #expect(res.events == [.next(210, 1), .error(220, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func throwingAfterNextSendsTheErrorAfterTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.do(afterNext: { if $0 == 1 { throw TestError(3) } })
        }
        #expect(res.events == [.next(210, 1), .error(210, TestError(3))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func throwingOnErrorReplacesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.error(210, TestError(1))]))
        let res = scheduler.start { xs.do(onError: { _ in throw TestError(4) }) }
        #expect(res.events == [.error(210, TestError(4))])
    }

    @Test func throwingOnCompletedSendsAnErrorInsteadOfCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.do(onCompleted: { throw TestError(5) }) }
        #expect(res.events == [.next(210, 1), .error(250, TestError(5))])
    }

    @Test func throwingAfterTheSequenceEndedSendsNothingMore() {
        expectMisuse(
            "do(afterError:/afterCompleted:) threw TestError(id: 6) after the sequence ended; it was dropped.",
            "do(afterError:/afterCompleted:) threw TestError(id: 7) after the sequence ended; it was dropped."
        ) {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
            let ys = scheduler.createHotObservable([Recorded<Event<Int>>]([.error(250, TestError(1))]))
            let completed = scheduler.createObserver(Int.self)
            let errored = scheduler.createObserver(Int.self)
            scheduler.subscribe(xs.do(afterCompleted: { throw TestError(6) }), completed, at: 200)
            scheduler.subscribe(ys.do(afterError: { _ in throw TestError(7) }), errored, at: 200)
            scheduler.start()
            #expect(completed.events == [.next(210, 1), .completed(250)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
            #expect(errored.events == [.error(250, TestError(1))])
            #expect(ys.subscriptions == [Subscription(200, 250)])
        }
    }
}

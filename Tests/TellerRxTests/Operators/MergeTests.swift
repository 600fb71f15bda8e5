@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct MergeTests {
    @Test func neverSourcesSendNothingAndStaySubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { Observable.merge(xs.asObservable(), ys.asObservable()) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
        #expect(ys.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptyListCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.merge([Observable<Int>]()) }
        #expect(res.events == [.completed(200)])
    }

    @Test func completesWhenTheLastSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let ys = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { Observable.merge(xs.asObservable(), ys.asObservable()) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func interleavesElementsInArrivalOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(230, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 20), .next(240, 30), .completed(260)])
        let zs = scheduler.createHotObservable([.next(225, 100), .completed(270)])
        let res = scheduler.start { Observable.merge([xs.asObservable(), ys.asObservable(), zs.asObservable()]) }
        #expect(
            res.events == [
                .next(210, 2), .next(220, 20), .next(225, 100), .next(230, 3), .next(240, 30), .completed(300),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 260)])
        #expect(zs.subscriptions == [Subscription(200, 270)])
    }

    @Test func errorFromOneSourceEndsAtOnceAndDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(300)])
        let res = scheduler.start { Observable.merge(xs.asObservable(), ys.asObservable()) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .error(230, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposingEarlyDisposesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 3), .completed(400)])
        let res = scheduler.start(disposed: 250) { Observable.merge(xs.asObservable(), ys.asObservable()) }
        #expect(res.events == [.next(210, 1), .next(220, 3)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func synchronousSourcesAreMergedInTheOrderTheySend() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.merge(Observable.of(1, 2), Observable.just(3), Observable<Int>.empty())
        }
        // As in RxSwift: `merge` subscribes its sources inside the current-thread trampoline,
        // where `of` queues its elements until the subscribing is done, while `just` sends at
        // once.
        #expect(res.events == [.next(200, 3), .next(200, 1), .next(200, 2), .completed(200)])
    }

    @Test func anySwiftCollectionOfSourcesCanBeMerged() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources: ContiguousArray<Observable<Int>> = [.just(1), .just(2)]
        let res = scheduler.start { Observable.merge(sources) }
        #expect(res.events == [.next(200, 1), .next(200, 2), .completed(200)])
    }

    @Test func aSynchronousErrorStopsTheRemainingSourcesFromBeingSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let later = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start {
            Observable.merge(Observable<Int>.error(TestError(3)), later.asObservable())
        }
        #expect(res.events == [.error(200, TestError(3))])
        #expect(later.subscriptions == [])
    }

    @Test func anElementSentFromInsideTheObserverIsDeliveredAfterTheCurrentOne() {
        // Re-entrancy: a source emits while its previous element is still being delivered on
        // the same thread; the new one is queued and delivered once that delivery returns.
        let subject = PublishSubject<Int>()
        let received = Locked<[Int]>([])
        let subscription = Observable.merge(subject.asObservable(), Observable.never())
            .subscribe(onNext: { value in
                received.append(value)
                if value == 1 { subject.onNext(2) }
            })
        subject.onNext(1)
        #expect(received.value == [1, 2])
        subscription.dispose()
    }
}

@Suite struct MergeObservableOfObservablesTests {
    @Test func mergesInnerSequencesAndCompletesAfterTheOuterAndEveryInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(5, 101), .next(20, 102), .completed(30)])
        let ys2 = scheduler.createColdObservable([.next(10, 201), .next(30, 202), .completed(40)])
        let xs = scheduler.createHotObservable([
            .next(210, ys1.asObservable()), .next(220, ys2.asObservable()), .completed(250),
        ])
        let res = scheduler.start { xs.merge() }
        #expect(
            res.events == [
                .next(215, 101), .next(230, 102), .next(230, 201), .next(250, 202), .completed(260),
            ]
        )
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys1.subscriptions == [Subscription(210, 240)])
        #expect(ys2.subscriptions == [Subscription(220, 260)])
    }

    @Test func outerCompletingWithNoInnerCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Observable<Int>>>.completed(230)])
        let res = scheduler.start { xs.merge() }
        #expect(res.events == [.completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func innerErrorEndsAtOnceAndDisposesOuterAndOtherInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(5, 1), .next(100, 2), .completed(200)])
        let ys2 = scheduler.createColdObservable([Recorded<Event<Int>>.error(20, TestError(2))])
        let xs = scheduler.createHotObservable([
            .next(210, ys1.asObservable()), .next(220, ys2.asObservable()), .completed(500),
        ])
        let res = scheduler.start { xs.merge() }
        #expect(res.events == [.next(215, 1), .error(240, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(ys1.subscriptions == [Subscription(210, 240)])
        #expect(ys2.subscriptions == [Subscription(220, 240)])
    }

    @Test func outerErrorEndsAtOnceAndDisposesEveryInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(5, 1), .completed(200)])
        let xs = scheduler.createHotObservable([.next(210, ys1.asObservable()), .error(230, TestError(1))])
        let res = scheduler.start { xs.merge() }
        #expect(res.events == [.next(215, 1), .error(230, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys1.subscriptions == [Subscription(210, 230)])
    }

    @Test func disposingEarlyDisposesOuterAndEveryInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(5, 1), .next(100, 2), .completed(200)])
        let ys2 = scheduler.createColdObservable([.next(5, 3), .completed(200)])
        let xs = scheduler.createHotObservable([.next(210, ys1.asObservable()), .next(220, ys2.asObservable())])
        let res = scheduler.start(disposed: 260) { xs.merge() }
        #expect(res.events == [.next(215, 1), .next(225, 3)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
        #expect(ys1.subscriptions == [Subscription(210, 260)])
        #expect(ys2.subscriptions == [Subscription(220, 260)])
    }

    @Test(arguments: [1, 2])
    func maxConcurrentQueuesInnerSequencesUntilOthersComplete(maxConcurrent: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let ys2 = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let ys3 = scheduler.createColdObservable([.next(5, 3), .completed(10)])
        let xs = scheduler.createHotObservable([
            .next(210, ys1.asObservable()), .next(215, ys2.asObservable()), .next(218, ys3.asObservable()),
            .completed(219),
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: maxConcurrent) }
        #expect(xs.subscriptions == [Subscription(200, 219)])
        #expect(ys1.subscriptions == [Subscription(210, 240)])
        if maxConcurrent == 1 {
            // ys2 waits for ys1, ys3 for ys2.
            #expect(res.events == [.next(220, 1), .next(245, 2), .next(255, 3), .completed(260)])
            #expect(ys2.subscriptions == [Subscription(240, 250)])
            #expect(ys3.subscriptions == [Subscription(250, 260)])
        } else {
            // ys2 runs beside ys1; ys3 waits for ys2.
            #expect(res.events == [.next(220, 1), .next(220, 2), .next(230, 3), .completed(240)])
            #expect(ys2.subscriptions == [Subscription(215, 225)])
            #expect(ys3.subscriptions == [Subscription(225, 235)])
        }
    }

    @Test func maxConcurrentBelowOneIsTreatedAsOne() {
        expectMisuse("merge(maxConcurrent:) needs at least 1; got 0, using 1.") {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start {
                Observable.of(Observable.of(1, 2), Observable.just(3)).merge(maxConcurrent: 0)
            }
            #expect(res.events == [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
        }
    }

    @Test func manyQueuedSynchronousInnerSequencesDoNotDeepenTheStack() {
        // 20,000 inner sequences queue up behind one that is still running; when it completes
        // they are subscribed by a loop, not by recursion.
        let gate = PublishSubject<Int>()
        let inners = [gate.asObservable()] + Array(repeating: Observable.just(1), count: 20_000)
        let count = Locked(0)
        let completed = Locked(false)
        let subscription = Observable.from(inners).merge(maxConcurrent: 1)
            .subscribe(onNext: { _ in count.increment() }, onCompleted: { completed.withLock { $0 = true } })
        gate.onCompleted()
        #expect(count.value == 20_000)
        #expect(completed.value)
        subscription.dispose()
    }
}

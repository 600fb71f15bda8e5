@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct WithUnretainedTests {
    @Test func pairsEachElementWithTheObjectWhileItIsAlive() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("a")
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.withUnretained(owner).map { "\($0.0)\($0.1)" } }
        #expect(res.events == [.next(210, "a1"), .next(220, "a2"), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func resultSelectorCombinesTheObjectAndTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("b")
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.withUnretained(owner) { "\($0)\($1 * 10)" } }
        #expect(res.events == [.next(210, "b10"), .completed(250)])
    }

    @Test func completesAtTheNextElementOnceTheObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        let slot = Locked<Owner?>(Owner("c"))
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(240, 3), .completed(300)])
        scheduler.scheduleAt(220) { slot.withLock { $0 = nil } }
        let res = scheduler.start {
            // The operator is built at 100 with the owner alive; only the weak reference remains.
            let owner = slot.value ?? Owner("missing")
            return xs.withUnretained(owner).map { "\($0.0)\($0.1)" }
        }
        #expect(res.events == [.next(210, "c1"), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func errorsPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = scheduler.start { xs.withUnretained(owner) { $1 } }
        #expect(res.events == [.next(210, 1), .error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func neverSendsNothingUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner()
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { xs.withUnretained(owner) { $1 } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptyCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner()
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        let res = scheduler.start { xs.withUnretained(owner) { $1 } }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposingEarlyStopsTheElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
        let res = scheduler.start(disposed: 300) { xs.withUnretained(owner) { $1 } }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func doesNotKeepTheObjectAlive() {
        let source = PublishSubject<Int>()
        let received = Locked<[String]>([])
        weak var weakOwner: Owner?
        let subscription: any Disposable
        do {
            let owner = Owner("d")
            weakOwner = owner
            subscription = source.withUnretained(owner)
                .subscribe(
                    onNext: { pair in received.withLock { $0.append("\(pair.0)\(pair.1)") } },
                    onCompleted: { received.withLock { $0.append("completed") } }
                )
            source.onNext(1)
        }
        #expect(weakOwner == nil)
        source.onNext(2)
        source.onNext(3)
        #expect(received.value == ["d1", "completed"])
        subscription.dispose()
    }

    @Test func chainIsFreedOnceTheObjectIsGoneAndAnElementArrives() {
        let source = PublishSubject<Int>()
        weak var weakToken: Token?
        let subscription: any Disposable
        do {
            let token = Token()
            weakToken = token
            let owner = Owner()
            // The token is captured upstream: completing must free the source chain.
            subscription = source.map { element in
                _ = token
                return element
            }
            .withUnretained(owner)
            .subscribe()
        }
        #expect(weakToken != nil)
        source.onNext(1)
        #expect(weakToken == nil)
        subscription.dispose()
    }
}

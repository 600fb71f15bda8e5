@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct BindTests {
    @Test func bindToAnObserverForwardsEveryEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.bind(to: observer) }
        scheduler.start()
        #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func bindToSeveralObserversSendsEachEventToEachInOrder() {
        let log = Locked<[String]>([])
        let first = AnyObserver<Int> { event in log.withLock { $0.append("first \(event)") } }
        let second = AnyObserver<Int> { event in log.withLock { $0.append("second \(event)") } }
        _ = Observable.of(1, 2).bind(to: first, second)
        #expect(
            log.value == [
                "first next(1)", "second next(1)", "first next(2)", "second next(2)", "first completed",
                "second completed",
            ]
        )
    }

    @Test func bindToObserversForwardsTheError() {
        let first = RecordingObserver<Int>()
        let second = RecordingObserver<Int>()
        _ = Observable<Int>.error(TestError(1)).bind(to: first, second)
        #expect(first.events == [.error(TestError(1))])
        #expect(second.events == [.error(TestError(1))])
    }

    @Test func bindToObserversOfOptionalsWrapsEachElement() {
        let observer = RecordingObserver<Int?>()
        _ = Observable.of(1, 2).bind(to: observer)
        #expect(observer.events == [.next(1), .next(2), .completed])
    }

    @Test func disposingTheBindingStopsForwarding() {
        let subject = PublishSubject<Int>()
        let observer = RecordingObserver<Int>()
        let binding = subject.bind(to: observer)
        subject.onNext(1)
        binding.dispose()
        subject.onNext(2)
        #expect(observer.events == [.next(1)])
    }

    @Test func bindToPublishRelaysAcceptsEveryElementAndIgnoresCompletion() {
        let relay = PublishRelay<Int>()
        let optionalRelay = PublishRelay<Int?>()
        let received = RecordingObserver<Int>()
        let receivedOptional = RecordingObserver<Int?>()
        _ = relay.subscribe(received)
        _ = optionalRelay.subscribe(receivedOptional)
        _ = Observable.of(1, 2).bind(to: relay)
        _ = Observable.of(3).bind(to: optionalRelay)
        relay.accept(4)
        #expect(received.events == [.next(1), .next(2), .next(4)])
        #expect(receivedOptional.events == [.next(3)])
    }

    @Test func bindToBehaviorRelaysUpdatesTheirValue() {
        let first = BehaviorRelay(value: 0)
        let second = BehaviorRelay(value: 0)
        let optional = BehaviorRelay<Int?>(value: nil)
        _ = Observable.of(1, 2).bind(to: first, second)
        _ = Observable.of(5).bind(to: optional)
        #expect(first.value == 2)
        #expect(second.value == 2)
        #expect(optional.value == 5)
    }

    @Test func bindToReplayRelaysAcceptsEveryElement() {
        let relay = ReplayRelay<Int>.createUnbounded()
        let optional = ReplayRelay<Int?>.create(bufferSize: 1)
        _ = Observable.of(1, 2).bind(to: relay)
        _ = Observable.of(3, 4).bind(to: optional)
        #expect(synchronousEvents(relay) == [.next(1), .next(2)])
        #expect(synchronousEvents(optional) == [.next(4)])
    }

    @Test func bindToARelayIgnoresAnErrorAndKeepsTheRelayUsable() {
        expectMisuse("Binding error to PublishRelay: TestError(id: 1)") {
            let relay = PublishRelay<Int>()
            let received = RecordingObserver<Int>()
            _ = relay.subscribe(received)
            _ = Observable<Int>.error(TestError(1)).bind(to: relay)
            relay.accept(1)
            #expect(received.events == [.next(1)])
        }
    }

    @Test func bindToABinderFunctionReturnsItsResult() {
        let observable = Observable.of(1, 2, 3)
        let count = observable.bind { (source: Observable<Int>) -> Int in
            synchronousEvents(source).count
        }
        #expect(count == 4)
        let curried = observable.bind(
            to: { source in { (multiplier: Int) in synchronousEvents(source).count * multiplier } },
            curriedArgument: 10
        )
        #expect(curried == 40)
    }

    @Test func bindOnNextReceivesTheElements() {
        expectMisuse("Binding error: TestError(id: 1)") {
            let received = Locked<[Int]>([])
            _ = Observable.of(1, 2).bind(onNext: { received.append($0) })
            _ = Observable<Int>.error(TestError(1)).bind(onNext: { received.append($0) })
            #expect(received.value == [1, 2])
        }
    }
}

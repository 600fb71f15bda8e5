import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct SubscribeTests {
    @Test func closuresReceiveElementsAndCompletionThenOnDisposedRunsOnce() {
        let log = Locked<[String]>([])
        let subscription = Observable.of(1, 2).subscribe(
            onNext: { value in log.withLock { $0.append("next \(value)") } },
            onError: { _ in log.withLock { $0.append("error") } },
            onCompleted: { log.withLock { $0.append("completed") } },
            onDisposed: { log.withLock { $0.append("disposed") } }
        )
        subscription.dispose()
        #expect(log.value == ["next 1", "next 2", "completed", "disposed"])
    }

    @Test func onErrorReceivesTheErrorThenOnDisposedRuns() {
        let log = Locked<[String]>([])
        _ = Observable<Int>.error(TestError(3)).subscribe(
            onError: { error in log.withLock { $0.append("error \((error as? TestError)?.id ?? -1)") } },
            onDisposed: { log.withLock { $0.append("disposed") } }
        )
        #expect(log.value == ["error 3", "disposed"])
    }

    @Test func disposingBeforeTheEndRunsOnlyOnDisposed() {
        let log = Locked<[String]>([])
        let subscription = Observable<Int>.never().subscribe(
            onCompleted: { log.withLock { $0.append("completed") } },
            onDisposed: { log.withLock { $0.append("disposed") } }
        )
        #expect(log.value == [])
        subscription.dispose()
        subscription.dispose()
        #expect(log.value == ["disposed"])
    }

    @Test func eventClosureSeesEveryEvent() {
        let events = Locked<[Event<Int>]>([])
        _ = Observable.of(1, 2).subscribe { event in events.withLock { $0.append(event) } }
        #expect(events.value == [.next(1), .next(2), .completed])
    }

    @Test func justEmptyNeverAndErrorBehaveAsNamed() {
        let just = ContractChecker<Int>()
        let empty = ContractChecker<Int>()
        let never = ContractChecker<Int>()
        let failure = ContractChecker<Int>()
        _ = Observable.just(7).subscribe(just)
        _ = Observable<Int>.empty().subscribe(empty)
        _ = Observable<Int>.never().subscribe(never)
        _ = Observable<Int>.error(TestError(9)).subscribe(failure)
        #expect(just.events == [.next(7), .completed])
        #expect(empty.events == [.completed])
        #expect(never.events == [])
        #expect(failure.events == [.error(TestError(9))])
    }

    @Test func ofAndFromEmitInOrderThenComplete() {
        let of = ContractChecker<Int>()
        let from = ContractChecker<Int>()
        let optional = ContractChecker<Int>()
        _ = Observable.of(1, 2, 3).subscribe(of)
        _ = Observable.from([4, 5]).subscribe(from)
        _ = Observable.from(optional: nil).subscribe(optional)
        #expect(of.events == [.next(1), .next(2), .next(3), .completed])
        #expect(from.events == [.next(4), .next(5), .completed])
        #expect(optional.events == [.completed])
    }

    @Test func ofOnAnotherSchedulerEmitsEachElementThere() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "of-test")
        let done = DispatchSemaphore(value: 0)
        let received = Locked<[Int]>([])
        let subscription = Observable.of(1, 2, 3, scheduler: scheduler)
            .subscribe(onNext: { received.append($0) }, onCompleted: { done.signal() })
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(received.value == [1, 2, 3])
        subscription.dispose()
    }

    @Test func eventAccessorsDescribeTheEvent() {
        let next = Event<Int>.next(1)
        let failure = Event<Int>.error(TestError(1))
        #expect(next.element == 1 && !next.isStopEvent)
        #expect(failure.error != nil && failure.isStopEvent && !failure.isCompleted)
        #expect(Event<Int>.completed.isCompleted)
        #expect(next.map { $0 + 1 } == .next(2))
        #expect(next.map { _ -> Int in throw TestError(2) } == .error(TestError(2)))
        #expect(next.debugDescription == "next(1)")
    }
}

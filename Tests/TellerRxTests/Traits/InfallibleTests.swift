import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// Subscribes to `infallible` and returns the events it sent before `subscribe` returned.
private func synchronousEvents<Element: Sendable>(_ infallible: Infallible<Element>) -> [InfallibleEvent<Element>] {
    let events = Locked<[InfallibleEvent<Element>]>([])
    infallible.subscribe { event in events.withLock { $0.append(event) } }.dispose()
    return events.value
}

@Suite struct InfallibleTests {
    // MARK: Conversions (RxSwift's grid)

    @Test func neverSourceSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]([.next(150, 1)]))
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func valuesPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(250)])
    }

    @Test func onErrorJustReturnReplacesTheErrorWithAnElementAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
        #expect(res.events == [.next(210, 1), .next(220, -1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func onErrorFallbackToContinuesWithTheFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let fallback = scheduler.createColdObservable([.next(10, 7), .completed(20)])
        let res = scheduler.start {
            xs.asInfallible(onErrorFallbackTo: fallback.asInfallible(onErrorJustReturn: 0))
        }
        #expect(res.events == [.next(210, 1), .next(230, 7), .completed(240)])
        #expect(fallback.subscriptions == [Subscription(220, 240)])
    }

    @Test func onErrorRecoverGetsTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(5))])
        let res = scheduler.start {
            xs.asInfallible(onErrorRecover: { error in
                .just((error as? TestError)?.id ?? 0)
            })
        }
        #expect(res.events == [.next(210, 1), .next(220, 5), .completed(220)])
    }

    @Test func disposingEarlyDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.asInfallible(onErrorJustReturn: -1) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func singleConvertsToo() {
        #expect(
            synchronousEvents(Single<Int>.error(TestError()).asInfallible(onErrorJustReturn: 3)) == [
                .next(3), .completed,
            ]
        )
    }

    // MARK: Create and subscribe

    @Test func createSendsWhatItsObserverReceivesAndDropsEventsAfterCompletion() {
        expectMisuse("Observable.create sent an element after the sequence ended; it was dropped.") {
            let disposed = Locked(0)
            let infallible = Infallible<Int>.create { observer in
                observer(.next(1))
                observer(.next(2))
                observer(.completed)
                observer(.next(3))
                return Disposables.create { disposed.increment() }
            }
            #expect(synchronousEvents(infallible) == [.next(1), .next(2), .completed])
            #expect(disposed.value == 1)
        }
    }

    @Test func subscribeWithClosuresReceivesElementsCompletionAndDisposal() {
        let log = Locked<[String]>([])
        _ = Infallible.of(1, 2).subscribe(
            onNext: { element in log.withLock { $0.append("next \(element)") } },
            onCompleted: { log.withLock { $0.append("completed") } },
            onDisposed: { log.withLock { $0.append("disposed") } }
        )
        #expect(log.value == ["next 1", "next 2", "completed", "disposed"])
    }

    @Test func subscribeWithObjectPassesTheObject() {
        final class Owner: Sendable {
            let received = Locked<[Int]>([])
        }
        let owner = Owner()
        _ = Infallible.of(4, 5).subscribe(with: owner, onNext: { owner, element in owner.received.append(element) })
        #expect(owner.received.value == [4, 5])
    }

    @Test func infallibleEventConvertsToEvent() {
        #expect(InfallibleEvent.next(1).event == .next(1))
        #expect(InfallibleEvent<Int>.completed.event == .completed)
    }

    // MARK: Creating

    @Test func staticFactoriesSendTheirElements() {
        #expect(synchronousEvents(Infallible.just(1)) == [.next(1), .completed])
        #expect(synchronousEvents(Infallible<Int>.empty()) == [.completed])
        #expect(synchronousEvents(Infallible<Int>.never()) == [])
        #expect(synchronousEvents(Infallible.of(1, 2, 3)) == [.next(1), .next(2), .next(3), .completed])
        #expect(synchronousEvents(Infallible.from([4, 5])) == [.next(4), .next(5), .completed])
        #expect(synchronousEvents(Infallible.from(6...7)) == [.next(6), .next(7), .completed])
        #expect(synchronousEvents(Infallible.repeatElement(8).take(2)) == [.next(8), .next(8), .completed])
        let made = Locked(0)
        let deferred = Infallible<Int>.deferred {
            made.increment()
            return .just(made.value)
        }
        #expect(synchronousEvents(deferred) == [.next(1), .completed])
        #expect(synchronousEvents(deferred) == [.next(2), .completed])
    }

    @Test func timerAndIntervalRunOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Infallible<Int>.interval(.seconds(100), scheduler: scheduler).take(3) }
        #expect(res.events == [.next(300, 0), .next(400, 1), .next(500, 2), .completed(500)])
        let other = TestScheduler(initialClock: 0)
        let timer = other.start { Infallible<Int>.timer(.seconds(50), scheduler: other) }
        #expect(timer.events == [.next(250, 0), .completed(250)])
    }

    // MARK: Operators

    @Test func transformingOperatorsForwardToTheObservableOnes() {
        let numbers = Infallible.of(1, 2, 2, 3, 4)
        #expect(
            synchronousEvents(numbers.map { $0 * 10 }) == [
                .next(10), .next(20), .next(20), .next(30), .next(40), .completed,
            ]
        )
        #expect(
            synchronousEvents(numbers.filter { $0.isMultiple(of: 2) }) == [.next(2), .next(2), .next(4), .completed]
        )
        #expect(synchronousEvents(numbers.compactMap { $0 > 2 ? $0 : nil }) == [.next(3), .next(4), .completed])
        #expect(
            synchronousEvents(numbers.distinctUntilChanged()) == [.next(1), .next(2), .next(3), .next(4), .completed]
        )
        #expect(
            synchronousEvents(numbers.distinctUntilChanged { $0 / 2 }) == [.next(1), .next(2), .next(4), .completed]
        )
        #expect(
            synchronousEvents(numbers.scan(0, accumulator: +)) == [
                .next(1), .next(3), .next(5), .next(8), .next(12), .completed,
            ]
        )
        #expect(synchronousEvents(numbers.scan(into: 0) { $0 += $1 }.take(2)) == [.next(1), .next(3), .completed])
        #expect(synchronousEvents(numbers.startWith(0).take(2)) == [.next(0), .next(1), .completed])
        #expect(synchronousEvents(numbers.take(while: { $0 < 3 })) == [.next(1), .next(2), .next(2), .completed])
        #expect(
            synchronousEvents(numbers.take(until: { $0 == 2 }, behavior: .inclusive)) == [
                .next(1), .next(2), .completed,
            ]
        )
        #expect(synchronousEvents(numbers.skip(while: { $0 < 3 })) == [.next(3), .next(4), .completed])
        let negativeTake = expectMisuse(
            "Infallible.take(_:) was called with a negative count (-1); it completes at once."
        ) {
            synchronousEvents(numbers.take(-1))
        }
        #expect(negativeTake == [.completed])
    }

    @Test func flatteningOperatorsForwardToTheObservableOnes() {
        let numbers = Infallible.of(1, 2)
        #expect(
            synchronousEvents(numbers.flatMap { Infallible.of($0, $0) }) == [
                .next(1), .next(1), .next(2), .next(2), .completed,
            ]
        )
        #expect(
            synchronousEvents(numbers.concatMap { Infallible.of($0, -$0) }) == [
                .next(1), .next(-1), .next(2), .next(-2), .completed,
            ]
        )
        #expect(synchronousEvents(numbers.flatMapLatest { Infallible.just($0) }) == [.next(1), .next(2), .completed])
        #expect(synchronousEvents(numbers.flatMapFirst { Infallible.just($0) }) == [.next(1), .next(2), .completed])
    }

    @Test func flatMapOntoAFailingSequenceLetsItsErrorThrough() {
        // As in RxSwift, the guarantee is only as good as the inner sequences: the error shows.
        let events = Locked<[Event<Int>]>([])
        _ = Infallible.just(1).flatMap { _ in Observable<Int>.error(TestError(9)) }.asObservable()
            .subscribe { event in events.withLock { $0.append(event) } }
        #expect(events.value == [.error(TestError(9))])
    }

    @Test func combiningOperatorsForwardToTheObservableOnes() {
        let letters = Infallible.of("a", "b")
        let numbers = Infallible.of(1, 2)
        #expect(
            synchronousEvents(Infallible.zip(letters, numbers) { "\($0)\($1)" }) == [
                .next("a1"), .next("b2"), .completed,
            ]
        )
        #expect(
            synchronousEvents(Infallible.zip(letters, numbers).map { "\($0.0)\($0.1)" }) == [
                .next("a1"), .next("b2"), .completed,
            ]
        )
        #expect(
            synchronousEvents(Infallible.combineLatest(letters, numbers) { "\($0)\($1)" }) == [
                .next("b1"), .next("b2"), .completed,
            ]
        )
        #expect(
            synchronousEvents(Infallible.concat(numbers, numbers)) == [
                .next(1), .next(2), .next(1), .next(2), .completed,
            ]
        )
        #expect(
            synchronousEvents(Infallible.concat([numbers, numbers]).take(3)) == [
                .next(1), .next(2), .next(1), .completed,
            ]
        )
        #expect(synchronousEvents(numbers.concat(Infallible.just(3))) == [.next(1), .next(2), .next(3), .completed])
        #expect(
            synchronousEvents(Infallible.merge(numbers, numbers)) == [
                .next(1), .next(2), .next(1), .next(2), .completed,
            ]
        )
        #expect(synchronousEvents(Infallible.merge([numbers])) == [.next(1), .next(2), .completed])
    }

    @Test func mergeOfACollectionMergesInsteadOfConcatenating() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([.next(20, 1), .completed(30)])
        let fast = scheduler.createColdObservable([.next(10, 2), .completed(15)])
        let res = scheduler.start {
            Infallible.merge(
                ContiguousArray([slow.asInfallible(onErrorJustReturn: 0), fast.asInfallible(onErrorJustReturn: 0)])
            )
        }
        #expect(res.events == [.next(210, 2), .next(220, 1), .completed(230)])
    }

    @Test func timeAndGatingOperatorsRunOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(260, 3), .completed(300)])
        let stop = scheduler.createHotObservable([.next(255, "stop")])
        let res = scheduler.start {
            xs.asInfallible(onErrorJustReturn: 0)
                .debounce(.seconds(20), scheduler: scheduler)
                .take(until: stop.asInfallible(onErrorJustReturn: ""))
        }
        #expect(res.events == [.next(235, 2), .completed(255)])
    }

    @Test func shareAndWithLatestFromForwardToTheObservableOnes() {
        let subscriptions = Locked(0)
        let shared = Infallible<Int>.create { observer in
            subscriptions.increment()
            observer(.next(1))
            return Disposables.create()
        }
        .share(replay: 1)
        let first = shared.subscribe()
        let second = shared.subscribe()
        #expect(subscriptions.value == 1)
        first.dispose()
        second.dispose()
        let latest = Infallible.of(1, 2).withLatestFrom(Infallible.just("x")) { "\($0)\($1)" }
        #expect(synchronousEvents(latest) == [.next("1x"), .next("2x"), .completed])
    }

    @Test func doRunsItsSideEffects() {
        let log = Locked<[String]>([])
        let infallible = Infallible.just(1).do(
            onNext: { element in log.withLock { $0.append("next \(element)") } },
            onCompleted: { log.withLock { $0.append("completed") } },
            onSubscribe: { log.withLock { $0.append("subscribe") } },
            onDispose: { log.withLock { $0.append("dispose") } }
        )
        _ = synchronousEvents(infallible)
        #expect(log.value == ["subscribe", "next 1", "completed", "dispose"])
    }
}

@_spi(TellerInternals) import TellerRx
import Testing

/// An observer that sends back into a multi-source operator from inside `onNext` (a subject fed
/// from its own subscriber): the operator holds no lock while it delivers, so this neither
/// deadlocks nor nests; the new result is delivered once the current `onNext` returns, in the
/// order it was decided. The log records `+value` when a delivery begins and `-value` when it
/// ends, so a nested delivery would show as two begins in a row.
@Suite struct ReentrantEmissionTests {
    private static let unnested = [1, -1, 2, -2, 3, -3]

    @Test func flatMapDeliversAnElementFedBackFromItsObserverAfterTheCurrentOne() {
        let subject = PublishSubject<Int>()
        let (log, subscription) = logDeliveries(of: subject.flatMap { Observable.just($0) }) { value in
            if value < 3 { subject.onNext(value + 1) }
        }
        subject.onNext(1)
        #expect(log.value == Self.unnested)
        subscription.dispose()
    }

    @Test func flatMapDeliversAnInnerElementFedBackFromItsObserverAfterTheCurrentOne() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let (log, subscription) = logDeliveries(of: outer.flatMap { _ in inner }) { value in
            if value < 3 { inner.onNext(value + 1) }
        }
        outer.onNext(0)
        inner.onNext(1)
        #expect(log.value == Self.unnested)
        subscription.dispose()
    }

    @Test func concatMapKeepsOrderWhenItsObserverFeedsTheSourceBack() {
        let subject = PublishSubject<Int>()
        let log = Locked<[Int]>([])
        let subscription = subject.concatMap { Observable.of($0, $0 * 10) }
            .subscribe(onNext: { value in
                log.append(value)
                if value == 1 { subject.onNext(2) }
            })
        subject.onNext(1)
        #expect(log.value == [1, 10, 2, 20])
        subscription.dispose()
    }

    @Test func mergeDeliversAnErrorFedBackAfterTheElementFedBackBeforeIt() {
        let subject = PublishSubject<Int>()
        let events = Locked<[Event<Int>]>([])
        let subscription = Observable.merge(subject.asObservable(), Observable.never())
            .subscribe { event in
                events.withLock { $0.append(event) }
                if case .next(1) = event {
                    subject.onNext(2)
                    subject.onError(TestError(7))
                    subject.onNext(3)
                }
            }
        subject.onNext(1)
        #expect(events.value == [.next(1), .next(2), .error(TestError(7))])
        subscription.dispose()
    }

    @Test func flatMapLatestDeliversAnInnerElementFedBackFromItsObserverAfterTheCurrentOne() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let (log, subscription) = logDeliveries(of: outer.flatMapLatest { _ in inner }) { value in
            if value < 3 { inner.onNext(value + 1) }
        }
        outer.onNext(0)
        inner.onNext(1)
        #expect(log.value == Self.unnested)
        subscription.dispose()
    }

    @Test func switchLatestSwitchesWhenItsObserverSendsANewInnerSequence() {
        let outer = PublishSubject<Observable<Int>>()
        let (log, subscription) = logDeliveries(of: outer.switchLatest()) { value in
            if value < 3 { outer.onNext(.just(value + 1)) }
        }
        outer.onNext(.just(1))
        #expect(log.value == Self.unnested)
        subscription.dispose()
    }

    @Test func combineLatestDeliversAResultFedBackFromItsObserverAfterTheCurrentOne() {
        let subject = PublishSubject<Int>()
        let (log, subscription) = logDeliveries(of: Observable.combineLatest(subject, Observable.just(0)) { $0 + $1 }) {
            value in
            if value < 3 { subject.onNext(value + 1) }
        }
        subject.onNext(1)
        #expect(log.value == Self.unnested)
        subscription.dispose()
    }

    @Test func zipDeliversAPairFedBackFromItsObserverAfterTheCurrentOne() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        let (log, subscription) = logDeliveries(of: Observable.zip(left, right) { $0 + $1 }) { value in
            if value < 3 {
                left.onNext(value + 1)
                right.onNext(0)
            }
        }
        left.onNext(1)
        right.onNext(0)
        #expect(log.value == Self.unnested)
        subscription.dispose()
    }

    @Test func zipCompletesAfterThePairFedBackBeforeTheCompletion() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        let events = Locked<[Event<Int>]>([])
        let subscription = Observable.zip(left, right) { $0 + $1 }
            .subscribe { event in
                events.withLock { $0.append(event) }
                if case .next(1) = event {
                    left.onNext(2)
                    right.onNext(0)
                    left.onCompleted()
                    right.onCompleted()
                }
            }
        left.onNext(1)
        right.onNext(0)
        #expect(events.value == [.next(1), .next(2), .completed])
        subscription.dispose()
    }
}

/// Subscribes to `observable`, logging `+value` when each delivery begins and `-value` when it
/// ends, with `react` run in between, inside `onNext`.
private func logDeliveries(
    of observable: Observable<Int>,
    react: @escaping @Sendable (Int) -> Void
) -> (log: Locked<[Int]>, subscription: any Disposable) {
    let log = Locked<[Int]>([])
    let subscription = observable.subscribe(onNext: { value in
        log.append(value)
        react(value)
        log.append(-value)
    })
    return (log, subscription)
}

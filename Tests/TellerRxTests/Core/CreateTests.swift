@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct CreateTests {
    @Test func elementsThenCompletionReachTheObserver() {
        let checker = ContractChecker<Int>()
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onCompleted()
            return Disposables.create()
        }
        .subscribe(checker)
        #expect(checker.events == [.next(1), .next(2), .completed])
        #expect(checker.violations.isEmpty)
    }

    @Test func nothingAfterCompletionReachesTheObserverEvenWhenCreateMisbehaves() {
        expectMisuse(
            "Observable.create sent an element after the sequence ended; it was dropped.",
            "Observable.create sent a second terminal event; it was dropped.",
            "Observable.create sent a second terminal event; it was dropped."
        ) {
            let checker = ContractChecker<Int>()
            _ = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onCompleted()
                observer.onNext(2)
                observer.onError(TestError(1))
                observer.onCompleted()
                return Disposables.create()
            }
            .subscribe(checker)
            #expect(checker.events == [.next(1), .completed])
            #expect(checker.violations.isEmpty)
        }
    }

    @Test func nothingAfterAnErrorReachesTheObserver() {
        expectMisuse(
            "Observable.create sent an element after the sequence ended; it was dropped.",
            "Observable.create sent a second terminal event; it was dropped."
        ) {
            let checker = ContractChecker<Int>()
            _ = Observable<Int>.create { observer in
                observer.onError(TestError(1))
                observer.onNext(2)
                observer.onCompleted()
                return Disposables.create()
            }
            .subscribe(checker)
            #expect(checker.events == [.error(TestError(1))])
        }
    }

    @Test func terminalEventDisposesTheReturnedDisposable() {
        let disposed = Locked(0)
        _ = Observable<Int>.create { observer in
            observer.onCompleted()
            return Disposables.create { disposed.increment() }
        }
        .subscribe()
        #expect(disposed.value == 1)
    }

    @Test func disposingTheSubscriptionDisposesTheReturnedDisposableOnce() {
        let disposed = Locked(0)
        let subscription = Observable<Int>.create { _ in
            Disposables.create { disposed.increment() }
        }
        .subscribe()
        #expect(disposed.value == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(disposed.value == 1)
    }

    @Test func eventsAfterDisposeAreNotDelivered() {
        let captured = Locked<AnyObserver<Int>?>(nil)
        let received = Locked<[Int]>([])
        let subscription = Observable<Int>.create { observer in
            captured.withLock { $0 = observer }
            return Disposables.create()
        }
        .subscribe(onNext: { received.append($0) })
        captured.value?.onNext(1)
        subscription.dispose()
        captured.value?.onNext(2)
        #expect(received.value == [1])
    }

    @Test func disposingFromInsideOnNextStopsDelivery() {
        let captured = Locked<AnyObserver<Int>?>(nil)
        let received = Locked<[Int]>([])
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(
            Observable<Int>.create { observer in
                captured.withLock { $0 = observer }
                return Disposables.create()
            }
            .subscribe(onNext: { value in
                received.append(value)
                if value == 2 { subscription.dispose() }
            })
        )
        for value in 1...5 { captured.value?.onNext(value) }
        #expect(received.value == [1, 2])
    }

    @Test func synchronousEmissionDuringSubscribeCannotBeStoppedByTheReturnedDisposable() {
        // As in RxSwift: the disposable exists only once subscribe returns. Use take(…) to
        // stop a synchronous source early.
        let received = Locked<[Int]>([])
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(
            Observable.of(1, 2, 3).subscribe(onNext: { value in
                received.append(value)
                subscription.dispose()
            })
        )
        #expect(received.value == [1, 2, 3])
    }

    @Test func createWorksWithMarbleTiming() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.create { observer in
                scheduler.scheduleAt(300) { observer.onNext(1) }
                scheduler.scheduleAt(400) { observer.onCompleted() }
                return Disposables.create()
            }
        }
        #expect(res.events == [.next(300, 1), .completed(400)])
    }
}

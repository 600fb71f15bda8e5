import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct DisposablesTests {
    @Test func anonymousDisposableRunsItsActionOnceFromManyThreads() {
        let count = Locked(0)
        let disposable = Disposables.create { count.increment() }
        DispatchQueue.concurrentPerform(iterations: 100) { _ in disposable.dispose() }
        #expect(count.value == 1)
        #expect(disposable.isDisposed)
    }

    @Test func binaryDisposableDisposesBothOnce() {
        let count = Locked(0)
        let pair = Disposables.create(
            Disposables.create { count.increment() },
            Disposables.create { count.increment() }
        )
        pair.dispose()
        pair.dispose()
        #expect(count.value == 2)
    }

    @Test func compositeDisposesMembersAndLateInsertions() {
        let log = Locked<[Int]>([])
        let composite = CompositeDisposable()
        composite.insert(Disposables.create { log.append(1) })
        let key = composite.insert(Disposables.create { log.append(2) })
        #expect(composite.count == 2)
        if let key { composite.remove(for: key) }
        #expect(log.value == [2])
        composite.dispose()
        #expect(log.value == [2, 1])
        #expect(composite.insert(Disposables.create { log.append(3) }) == nil)
        #expect(log.value == [2, 1, 3])
        #expect(composite.isDisposed)
    }

    @Test func serialDisposableDisposesThePreviousWhenReplaced() {
        let log = Locked<[Int]>([])
        let serial = SerialDisposable()
        serial.disposable = Disposables.create { log.append(1) }
        serial.disposable = Disposables.create { log.append(2) }
        #expect(log.value == [1])
        serial.dispose()
        #expect(log.value == [1, 2])
        serial.disposable = Disposables.create { log.append(3) }
        #expect(log.value == [1, 2, 3])
    }

    @Test func singleAssignmentDisposesLateAssignmentAfterDispose() {
        let log = Locked<[Int]>([])
        let single = SingleAssignmentDisposable()
        single.dispose()
        #expect(single.isDisposed)
        single.setDisposable(Disposables.create { log.append(1) })
        #expect(log.value == [1])
    }

    @Test func singleAssignmentRejectsASecondAssignmentByDisposingIt() {
        expectMisuse("SingleAssignmentDisposable.setDisposable called twice; disposing the second one.") {
            let log = Locked<[Int]>([])
            let single = SingleAssignmentDisposable()
            single.setDisposable(Disposables.create { log.append(1) })
            single.setDisposable(Disposables.create { log.append(2) })
            #expect(log.value == [2])
            single.dispose()
            #expect(log.value == [2, 1])
        }
    }

    @Test func disposeBagDisposesEverythingWhenReleased() {
        let log = Locked<[Int]>([])
        var bag: DisposeBag? = DisposeBag()
        if let bag {
            Disposables.create { log.append(1) }.disposed(by: bag)
            Disposables.create { log.append(2) }.disposed(by: bag)
        }
        #expect(log.value == [])
        bag = nil
        #expect(log.value == [1, 2])
    }

    @Test func disposeBagEndsSubscriptions() {
        let subject = PublishSubject<Int>()
        let received = Locked<[Int]>([])
        var bag = DisposeBag()
        subject.subscribe(onNext: { received.append($0) }).disposed(by: bag)
        subject.onNext(1)
        bag = DisposeBag()
        subject.onNext(2)
        #expect(received.value == [1])
        #expect(!subject.hasObservers)
        _ = bag
    }

    @Test func booleanDisposableRecordsDisposal() {
        let disposable = BooleanDisposable()
        #expect(!disposable.isDisposed)
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(BooleanDisposable.booleanDisposableTrue.isDisposed)
    }
}

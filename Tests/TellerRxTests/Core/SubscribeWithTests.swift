@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct SubscribeWithTests {
    @Test func closuresReceiveTheObjectWhileItIsAlive() {
        let owner = Owner("a")
        let log = Locked<[String]>([])
        _ = Observable.of(1, 2)
            .subscribe(
                with: owner,
                onNext: { owner, element in log.withLock { $0.append("\(owner) next \(element)") } },
                onError: { owner, error in log.withLock { $0.append("\(owner) error \(error)") } },
                onCompleted: { owner in log.withLock { $0.append("\(owner) completed") } },
                onDisposed: { owner in log.withLock { $0.append("\(owner) disposed") } }
            )
        #expect(log.value == ["a next 1", "a next 2", "a completed", "a disposed"])
    }

    @Test func errorReachesOnErrorWithTheObject() {
        let owner = Owner("b")
        let log = Locked<[String]>([])
        _ = Observable<Int>.error(TestError(1))
            .subscribe(
                with: owner,
                onError: { owner, error in log.withLock { $0.append("\(owner) \(error)") } },
                onDisposed: { owner in log.withLock { $0.append("\(owner) disposed") } }
            )
        #expect(log.value == ["b TestError(id: 1)", "b disposed"])
    }

    @Test func closuresAreSkippedOnceTheObjectIsGone() {
        let source = PublishSubject<Int>()
        let log = Locked<[String]>([])
        weak var weakOwner: Owner?
        let subscription: any Disposable
        do {
            let owner = Owner("c")
            weakOwner = owner
            subscription = source.subscribe(
                with: owner,
                onNext: { owner, element in log.withLock { $0.append("\(owner) next \(element)") } },
                onCompleted: { owner in log.withLock { $0.append("\(owner) completed") } },
                onDisposed: { owner in log.withLock { $0.append("\(owner) disposed") } }
            )
            source.onNext(1)
        }
        #expect(weakOwner == nil)
        source.onNext(2)
        source.onCompleted()
        subscription.dispose()
        #expect(log.value == ["c next 1"])
    }

    @Test func disposingCallsOnDisposedWithTheObject() {
        let owner = Owner("d")
        let log = Locked<[String]>([])
        let subscription = Observable<Int>.never()
            .subscribe(with: owner, onDisposed: { owner in log.withLock { $0.append("\(owner) disposed") } })
        #expect(log.value == [])
        subscription.dispose()
        subscription.dispose()
        #expect(log.value == ["d disposed"])
    }

    @Test func singleSubscribeWithPassesTheObject() {
        let owner = Owner("s")
        let log = Locked<[String]>([])
        _ = Single.just(1)
            .subscribe(
                with: owner,
                onSuccess: { owner, element in log.withLock { $0.append("\(owner) success \(element)") } },
                onFailure: { owner, error in log.withLock { $0.append("\(owner) failure \(error)") } },
                onDisposed: { owner in log.withLock { $0.append("\(owner) disposed") } }
            )
        _ = Single<Int>.error(TestError(2))
            .subscribe(with: owner, onFailure: { owner, error in log.withLock { $0.append("\(owner) \(error)") } })
        #expect(log.value == ["s success 1", "s disposed", "s TestError(id: 2)"])
    }

    @Test func maybeSubscribeWithPassesTheObject() {
        let owner = Owner("m")
        let log = Locked<[String]>([])
        let maybes: [Maybe<Int>] = [.just(1), .empty(), .error(TestError(3))]
        for maybe in maybes {
            _ = maybe.subscribe(
                with: owner,
                onSuccess: { owner, element in log.withLock { $0.append("\(owner) success \(element)") } },
                onError: { owner, error in log.withLock { $0.append("\(owner) error \(error)") } },
                onCompleted: { owner in log.withLock { $0.append("\(owner) completed") } },
                onDisposed: { owner in log.withLock { $0.append("\(owner) disposed") } }
            )
        }
        #expect(
            log.value == [
                "m success 1", "m disposed", "m completed", "m disposed", "m error TestError(id: 3)", "m disposed",
            ]
        )
    }

    @Test func completableSubscribeWithPassesTheObject() {
        let owner = Owner("c")
        let log = Locked<[String]>([])
        let completables: [Completable] = [.empty(), .error(TestError(4))]
        for completable in completables {
            _ = completable.subscribe(
                with: owner,
                onCompleted: { owner in log.withLock { $0.append("\(owner) completed") } },
                onError: { owner, error in log.withLock { $0.append("\(owner) error \(error)") } },
                onDisposed: { owner in log.withLock { $0.append("\(owner) disposed") } }
            )
        }
        #expect(log.value == ["c completed", "c disposed", "c error TestError(id: 4)", "c disposed"])
    }

    @Test func traitClosuresAreSkippedOnceTheObjectIsGone() {
        let subject = PublishSubject<Int>()
        let log = Locked<[String]>([])
        let subscription: any Disposable
        do {
            let owner = Owner()
            subscription = subject.asSingle()
                .subscribe(
                    with: owner,
                    onSuccess: { _, element in log.withLock { $0.append("success \(element)") } },
                    onDisposed: { _ in log.withLock { $0.append("disposed") } }
                )
        }
        subject.onNext(1)
        subject.onCompleted()
        subscription.dispose()
        #expect(log.value == [])
    }

    @Test func subscribeWithDoesNotRetainTheObject() {
        weak var weakOwner: Owner?
        let subscription: any Disposable
        do {
            let owner = Owner()
            weakOwner = owner
            subscription = Observable<Int>.never().subscribe(with: owner, onNext: { _, _ in })
        }
        #expect(weakOwner == nil)
        subscription.dispose()
    }
}

import TellerRx
import Testing

@Suite(.serialized) struct TraitLeakTests {
    @Test func finishedTraitsFreeEverything() {
        #expect(Resources.isTracking)
        #expect(!leaksOnEveryTry { _ = Single.just(1).subscribe(onSuccess: { _ in }, onDisposed: {}) })
        #expect(!leaksOnEveryTry { _ = Single<Int>.error(TestError()).subscribe(onFailure: { _ in }) })
        #expect(!leaksOnEveryTry { _ = Maybe<Int>.empty().subscribe { _ in } })
        #expect(!leaksOnEveryTry { _ = Completable.empty().subscribe { _ in } })
        #expect(
            !leaksOnEveryTry {
                _ = Single<Int>.create { single in
                    single(.success(1))
                    return Disposables.create()
                }
                .subscribe()
            }
        )
    }

    @Test func conversionsFreeEverything() {
        #expect(!leaksOnEveryTry { _ = Observable.just(1).asSingle().subscribe() })
        #expect(!leaksOnEveryTry { _ = Observable<Int>.empty().asSingle().subscribe(onFailure: { _ in }) })
        #expect(!leaksOnEveryTry { _ = Observable.of(1, 2).asSingle().subscribe(onFailure: { _ in }) })
        #expect(!leaksOnEveryTry { _ = Observable.of(1, 2).asMaybe().subscribe(onError: { _ in }) })
        #expect(!leaksOnEveryTry { _ = Observable.of(1, 2).ignoreElements().asCompletable().subscribe() })
    }

    @Test func operatorsFreeEverything() {
        #expect(!leaksOnEveryTry { _ = Single.just(1).map { $0 + 1 }.compactMap { $0 }.subscribe() })
        #expect(!leaksOnEveryTry { _ = Single.just(1).flatMap { Single.just($0) }.subscribe() })
        #expect(!leaksOnEveryTry { _ = Single.just(1).flatMapCompletable { _ in .empty() }.subscribe() })
        #expect(!leaksOnEveryTry { _ = Completable.empty().andThen(Single.just(1)).subscribe() })
        #expect(!leaksOnEveryTry { _ = Completable.error(TestError()).andThen(Single.just(1)).subscribe { _ in } })
    }

    @Test func disposedSubscriptionsFreeEverything() {
        let subject = PublishSubject<Int>()
        #expect(!leaksOnEveryTry { subject.asSingle().flatMap { Single.just($0) }.subscribe().dispose() })
        #expect(!leaksOnEveryTry { Completable.never().andThen(Single.just(1)).subscribe().dispose() })
        #expect(
            !leaksOnEveryTry {
                Single<Int>.create { _ in Disposables.create() }.subscribe(onDisposed: {}).dispose()
            }
        )
        #expect(!leaksOnEveryTry { Single.just(1).flatMap { _ in Single<Int>.never() }.subscribe().dispose() })
    }

    @Test func wrapperOperatorsFreeEverything() {
        #expect(!leaksOnEveryTry { _ = Single<Int>.error(TestError()).catch { _ in .just(1) }.subscribe() })
        #expect(!leaksOnEveryTry { _ = Single<Int>.error(TestError()).retry(2).subscribe(onFailure: { _ in }) })
        #expect(!leaksOnEveryTry { _ = Maybe<Int>.empty().ifEmpty(switchTo: Single.just(1)).subscribe() })
        #expect(!leaksOnEveryTry { _ = Single.zip(Single.just(1), Single.just(2)).subscribe() })
        #expect(!leaksOnEveryTry { _ = Single.zip([Single.just(1), .just(2)]).subscribe() })
        #expect(!leaksOnEveryTry { _ = Completable.zip(.empty(), .empty()).subscribe() })
        #expect(!leaksOnEveryTry { _ = Completable.concat(.empty(), .empty()).subscribe() })
        #expect(!leaksOnEveryTry { _ = Single.just(1).do(onSuccess: { _ in }, onDispose: {}).subscribe() })
        #expect(
            !leaksOnEveryTry {
                _ = Single.using({ BooleanDisposable() }, primitiveSequenceFactory: { _ in .just(1) }).subscribe()
            }
        )
        let owner = Owner()
        #expect(!leaksOnEveryTry { _ = Single.just(1).subscribe(with: owner, onSuccess: { _, _ in }) })
        #expect(!leaksOnEveryTry { _ = Observable.of(1, 2).withUnretained(owner).subscribe() })
        #expect(!leaksOnEveryTry { _ = Observable<Int>.empty().ifEmpty(default: 1).subscribe() })
        #expect(!leaksOnEveryTry { _ = Observable.of(1, 2).bind(to: PublishRelay<Int>()) })
    }
}

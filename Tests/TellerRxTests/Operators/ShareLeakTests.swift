import TellerRx
import TellerTesting
import Testing

/// The operators of this area free everything once a chain ends or is disposed, counted with
/// the calling thread's resource total (see `resourcesLeaked(by:)`).
@Suite(.serialized) struct ShareLeakTests {
    static let scopes: [(Int, SubjectLifetimeScope)] = [
        (0, .whileConnected), (1, .whileConnected), (3, .whileConnected), (0, .forever), (1, .forever),
        (3, .forever),
    ]

    @Test(arguments: scopes)
    func shareFreesItsConnectionWhenTheSourceEnds(replay: Int, scope: SubjectLifetimeScope) {
        #expect(
            fewestResourcesLeaked {
                _ = Observable.just(1).share(replay: replay, scope: scope).subscribe()
                _ = Observable<Int>.error(TestError(1)).share(replay: replay, scope: scope).subscribe(onError: { _ in })
            } == 0
        )
    }

    @Test(arguments: scopes)
    func shareFreesItsConnectionWhenTheLastSubscriberLeaves(replay: Int, scope: SubjectLifetimeScope) {
        #expect(
            fewestResourcesLeaked {
                let subject = PublishSubject<Int>()
                let shared = subject.share(replay: replay, scope: scope)
                let first = shared.subscribe()
                subject.onNext(1)
                let second = shared.subscribe()
                first.dispose()
                second.dispose()
            } == 0
        )
    }

    @Test func publishRefCountAndMulticastFreeEverything() {
        #expect(
            fewestResourcesLeaked {
                _ = Observable.of(1, 2).publish().refCount().subscribe()
                let subject = PublishSubject<Int>()
                let shared = subject.multicast(PublishSubject<Int>()).refCount()
                let subscription = shared.subscribe()
                subject.onNext(1)
                subscription.dispose()
                let published = subject.publish()
                let observer = published.subscribe()
                let connection = published.connect()
                connection.dispose()
                observer.dispose()
            } == 0
        )
    }

    @Test func errorOperatorsFreeEverything() {
        #expect(
            fewestResourcesLeaked {
                _ = Observable<Int>.error(TestError(1)).catch { _ in .just(1) }.subscribe()
                _ = Observable<Int>.error(TestError(1)).catchAndReturn(1).subscribe()
                _ = Observable<Int>.error(TestError(1)).retry(3).subscribe(onError: { _ in })
                let subject = PublishSubject<Int>()
                let retrying = subject.retry().subscribe()
                subject.onNext(1)
                retrying.dispose()
                _ = Observable<Int>.error(TestError(1))
                    .retry(when: { (errors: Observable<any Error>) in errors.map { _ -> Int in throw TestError(2) } })
                    .subscribe(onError: { _ in })
                let waiting = Observable<Int>.error(TestError(1))
                    .retry(when: { (_: Observable<any Error>) in Observable<Int>.never() })
                    .subscribe()
                waiting.dispose()
            } == 0
        )
    }

    @Test func utilityOperatorsFreeEverything() {
        #expect(
            fewestResourcesLeaked {
                _ = Observable.using({ BooleanDisposable() }, observableFactory: { _ in Observable.just(1) })
                    .subscribe()
                _ = Observable<Int>.deferred { .just(1) }.subscribe()
                _ = Observable<Int>.deferred { throw TestError(1) }.subscribe(onError: { _ in })
                _ = Observable.just(1).do(onNext: { _ in }, onDispose: {}).subscribe()
                let subscription = Observable<Int>.never().do(onSubscribe: {}).subscribe()
                subscription.dispose()
            } == 0
        )
    }
}

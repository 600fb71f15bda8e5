@_spi(TellerInternals) import TellerRx
import Testing

/// The result selectors of `zip` and `combineLatest` are user code: they run once the
/// operator's lock is released, in its delivery turn. A selector that sends back into its own
/// operator (under the lock it would deadlock; a debug build's lock stops at once instead)
/// gets the result it caused after its own, and an error thrown by a selector making such a
/// result ends the sequence in that result's place.
@Suite struct ResultSelectorLockTests {
    @Test func combineLatestRunsItsResultSelectorWithoutItsLock() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let results = Locked<[Int]>([])
        let subscription = Observable.combineLatest(first, second) { left, right in
            // Into the other source: a subject queues what is sent into it while it delivers.
            if left == 1 && right == 10 { first.onNext(2) }
            return left + right
        }
        .subscribe(onNext: { results.append($0) })
        first.onNext(1)
        second.onNext(10)
        #expect(results.value == [11, 12])
        subscription.dispose()
    }

    @Test func zipRunsItsResultSelectorWithoutItsLock() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let results = Locked<[Int]>([])
        let subscription = Observable.zip(first, second) { left, right in
            if left == 1 {
                first.onNext(2)
                second.onNext(20)
            }
            return left + right
        }
        .subscribe(onNext: { results.append($0) })
        first.onNext(1)
        second.onNext(10)
        #expect(results.value == [11, 22])
        subscription.dispose()
    }

    @Test func combineLatestEndsWithTheErrorOfASelectorMakingAResultItCaused() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let (events, subscription) = record(
            Observable.combineLatest(first, second) { left, right in
                if left == 1 && right == 10 { first.onNext(2) }
                if left == 2 { throw TestError() }
                return left + right
            }
        )
        first.onNext(1)
        second.onNext(10)
        second.onNext(30)
        #expect(events.value == ["11", "error"])
        subscription.dispose()
    }

    @Test func zipEndsWithTheErrorOfASelectorMakingAResultItCaused() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let (events, subscription) = record(
            Observable.zip(first, second) { left, right in
                if left == 1 {
                    first.onNext(2)
                    second.onNext(20)
                    first.onNext(3)
                    second.onNext(30)
                }
                if left == 2 { throw TestError() }
                return left + right
            }
        )
        first.onNext(1)
        second.onNext(10)
        #expect(events.value == ["11", "error"])
        subscription.dispose()
    }
}

/// Subscribes to `results`, recording its events as "11", "error", "completed".
private func record(_ results: Observable<Int>) -> (events: Locked<[String]>, subscription: any Disposable) {
    let events = Locked<[String]>([])
    let subscription = results.subscribe(
        onNext: { value in events.withLock { $0.append("\(value)") } },
        onError: { _ in events.withLock { $0.append("error") } },
        onCompleted: { events.withLock { $0.append("completed") } }
    )
    return (events, subscription)
}

@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// The selectors of `flatMap`, `concatMap` and `flatMapLatest` are user code, so they run with
/// the operator's lock released. Here each selector sends into an inner sequence the operator is
/// observing, which takes that lock: under it, it would deadlock (a debug build's lock stops at
/// once instead).
@Suite struct FlatteningSelectorLockTests {
    @Test func flatMapSelectorMaySendIntoARunningInnerSequence() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let results = Locked<[Int]>([])
        let subscription = outer.flatMap { number in sendingInto(inner, for: number) }
            .subscribe(onNext: { results.append($0) })
        outer.onNext(1)
        outer.onNext(2)
        #expect(results.value == [20, 2])
        subscription.dispose()
    }

    @Test func concatMapSelectorMaySendIntoTheRunningInnerSequenceAndStillQueuesItsResult() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let results = Locked<[Int]>([])
        let subscription = outer.concatMap { number in sendingInto(inner, for: number) }
            .subscribe(onNext: { results.append($0) })
        outer.onNext(1)
        outer.onNext(2)
        #expect(results.value == [20])
        inner.onCompleted()
        #expect(results.value == [20, 2])
        subscription.dispose()
    }

    @Test func flatMapLatestSelectorMaySendIntoTheInnerSequenceItReplaces() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let results = Locked<[Int]>([])
        let subscription = outer.flatMapLatest { number in sendingInto(inner, for: number) }
            .subscribe(onNext: { results.append($0) })
        outer.onNext(1)
        outer.onNext(2)
        #expect(results.value == [20, 2])
        subscription.dispose()
    }
}

/// A selector: `inner` for 1; for any other number, sends ten times it into `inner` first, then
/// returns a `just` of it.
private func sendingInto(_ inner: PublishSubject<Int>, for number: Int) -> Observable<Int> {
    if number == 1 { return inner.asObservable() }
    inner.onNext(number * 10)
    return .just(number)
}

import Dispatch
import TellerRx
import TellerTesting
import Testing

/// RxSwift 6 still accepts its RxSwift 5 spellings (deprecated); so does TellerRx, so ported
/// code compiles. Each must behave as the operator it renames.
@Suite struct DeprecatedSpellingsTests {
    @available(*, deprecated)
    @Test func rxSwift5SpellingsForwardToTheRenamedOperators() {
        let numbers = Observable.of(1, 2, 3, 1)
        #expect(synchronousEvents(numbers.takeWhile { $0 < 3 }) == [.next(1), .next(2), .completed])
        #expect(synchronousEvents(numbers.takeUntil(.inclusive) { $0 == 2 }) == [.next(1), .next(2), .completed])
        #expect(synchronousEvents(numbers.skipWhile { $0 < 3 }) == [.next(3), .next(1), .completed])
        #expect(synchronousEvents(numbers.elementAt(2)) == [.next(3), .completed])
        #expect(synchronousEvents(numbers.takeUntil(Observable.just(0))) == [.completed])
        #expect(synchronousEvents(numbers.skipUntil(Observable<Int>.never())) == [])
    }
}

@Suite struct DeprecatedTimeAndCatchSpellingsTests {
    @available(*, deprecated)
    @Test func skipAndTakeWithADurationForwardToTheForSpellings() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
        let skipped = scheduler.start { xs.skip(.seconds(25), scheduler: scheduler) }
        #expect(skipped.events == [.next(230, 2), .next(260, 3), .completed(300)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
        let taken = other.start { ys.take(.seconds(40), scheduler: other) }
        #expect(taken.events == [.next(210, 1), .next(230, 2), .completed(240)])
    }

    @available(*, deprecated)
    @Test func catchErrorSpellingsForwardToCatch() {
        let failing = Observable<Int>.error(TestError(1))
        #expect(synchronousEvents(failing.catchError { _ in .just(2) }) == [.next(2), .completed])
        #expect(synchronousEvents(failing.catchErrorJustReturn(3)) == [.next(3), .completed])
        #expect(synchronousEvents(Observable.catchError([failing, .just(4)])) == [.next(4), .completed])
    }
}

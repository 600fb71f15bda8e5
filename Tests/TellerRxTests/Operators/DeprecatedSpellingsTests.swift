import TellerRx
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

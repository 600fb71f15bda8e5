@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// Sums two sources of either trait with one `zip` call, as code generic over the trait would.
private func zipSum<Trait: SingleOrMaybeTrait>(
    _ first: PrimitiveSequence<Trait, Int>,
    _ second: PrimitiveSequence<Trait, Int>
) -> PrimitiveSequence<Trait, Int> {
    PrimitiveSequence.zip(first, second) { $0 + $1 }
}

/// `zip` and `map`, written once for singles and maybes, give back the trait of their sources.
@Suite struct SingleOrMaybeTraitTests {
    @Test func maybeZipIntoATupleKeepsEachElementType() throws {
        let pair: Maybe<(Int, String)> = Maybe.zip(Maybe.just(1), Maybe.just("a"))
        let value = try pair.toBlocking().single()
        #expect(value.0 == 1 && value.1 == "a")
    }

    @Test func mapOfASingleIsASingleAndOfAMaybeAMaybe() throws {
        let single: Single<String> = Single.just(1).map { "s\($0)" }
        let maybe: Maybe<String> = Maybe.just(2).map { "m\($0)" }
        #expect(try single.toBlocking().single() == "s1")
        #expect(try maybe.toBlocking().single() == "m2")
    }

    @Test func codeGenericOverTheTraitZipsSinglesAndMaybes() {
        let singles: Single<Int> = zipSum(Single.just(1), Single.just(2))
        #expect(synchronousEvents(singles.asObservable()) == [.next(3), .completed])
        let maybes: Maybe<Int> = zipSum(Maybe.just(1), Maybe.empty())
        #expect(synchronousEvents(maybes.asObservable()) == [.completed])
    }
}

@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// `Infallible.combineLatest` and `Infallible.zip` for 2 to 8 sources, with a result selector and
/// into tuples, as RxSwift has them (the generated overloads in Infallible+Arity.swift).
@Suite struct InfallibleArityTests {
    private static func events<Element: Sendable>(_ infallible: Infallible<Element>) -> [InfallibleEvent<Element>] {
        let events = Locked<[InfallibleEvent<Element>]>([])
        infallible.subscribe { event in events.withLock { $0.append(event) } }.dispose()
        return events.value
    }

    private static func just(_ value: Int) -> Infallible<Int> { Infallible.just(value) }

    @Test func combineLatestWithAResultSelectorTakesUpToEightInfallibles() {
        let (a, b, c, d, e, f, g, h) = (
            Self.just(1), Self.just(2), Self.just(3), Self.just(4), Self.just(5), Self.just(6), Self.just(7),
            Self.just(8)
        )
        #expect(
            Self.events(Infallible.combineLatest(a, b, c, d, e) { $0 + $1 + $2 + $3 + $4 }) == [.next(15), .completed]
        )
        #expect(
            Self.events(Infallible.combineLatest(a, b, c, d, e, f) { $0 + $1 + $2 + $3 + $4 + $5 })
                == [.next(21), .completed]
        )
        #expect(
            Self.events(Infallible.combineLatest(a, b, c, d, e, f, g) { $0 + $1 + $2 + $3 + $4 + $5 + $6 })
                == [.next(28), .completed]
        )
        #expect(
            Self.events(Infallible.combineLatest(a, b, c, d, e, f, g, h) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 })
                == [.next(36), .completed]
        )
    }

    @Test func combineLatestIntoTuplesTakesUpToEightInfallibles() {
        let (a, b, c, d, e, f, g, h) = (
            Self.just(1), Self.just(2), Self.just(3), Self.just(4), Self.just(5), Self.just(6), Self.just(7),
            Self.just(8)
        )
        #expect(
            Self.events(Infallible.combineLatest(a, b, c, d).map { "\($0)" }) == [.next("(1, 2, 3, 4)"), .completed]
        )
        #expect(
            Self.events(Infallible.combineLatest(a, b, c, d, e, f, g, h).map { "\($0)" })
                == [.next("(1, 2, 3, 4, 5, 6, 7, 8)"), .completed]
        )
    }

    @Test func zipTakesUpToEightInfalliblesWithAResultSelectorOrIntoTuples() {
        let (a, b, c, d, e, f, g, h) = (
            Self.just(1), Self.just(2), Self.just(3), Self.just(4), Self.just(5), Self.just(6), Self.just(7),
            Self.just(8)
        )
        #expect(
            Self.events(Infallible.zip(a, b, c, d, e, f, g, h) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 })
                == [.next(36), .completed]
        )
        #expect(
            Self.events(Infallible.zip(a, b, c, d, e, f, g, h).map { "\($0)" })
                == [.next("(1, 2, 3, 4, 5, 6, 7, 8)"), .completed]
        )
    }

    /// The combining itself is the observable operator's: a result each time any source sends,
    /// once all have sent.
    @Test func combineLatestOfEightSendsAResultEachTimeAnySourceSendsOnceAllHave() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (1...8).map { index in
            scheduler.createHotObservable([.next(200 + 10 * index, index), .next(300 + index, 10 * index)])
                .asInfallible(onErrorJustReturn: -1)
        }
        let res = scheduler.start {
            Infallible.combineLatest(
                sources[0],
                sources[1],
                sources[2],
                sources[3],
                sources[4],
                sources[5],
                sources[6],
                sources[7]
            ) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
            .asObservable()
        }
        #expect(
            res.events == [
                .next(280, 36), .next(301, 45), .next(302, 63), .next(303, 90), .next(304, 126),
                .next(305, 171), .next(306, 225), .next(307, 288), .next(308, 360),
            ]
        )
    }
}

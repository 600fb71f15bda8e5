#if canImport(XCTest)
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import XCTest

/// RxTest's `XCTAssertEqual` overloads, called as ported RxSwift tests call them. These pass
/// only if the overloads compare correctly; a mismatch would fail the test (the messages are
/// checked in RecordedEventsTests).
final class XCTestAssertionsTests: XCTestCase {
    private struct Failure: Error, Equatable {}

    func testRecordedEventsOfATestSchedulerRun() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Recorded.events(.next(210, 1), .completed(250)))
        let res = scheduler.start { xs.map { $0 + 1 } }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(250)])
        XCTAssertEqual(res.events.map(\.value), [.next(2), .completed])
        XCTAssertRecordedElements(Array(res.events.dropLast()), [2])
    }

    func testTraitOutcomes() {
        let singles = Locked<[SingleEvent<Int>]>([])
        _ = Single.just(1).subscribe { event in singles.withLock { $0.append(event) } }
        _ = Single<Int>.error(Failure()).subscribe { event in singles.withLock { $0.append(event) } }
        XCTAssertEqual(singles.value, [.success(1), .failure(Failure())])

        let maybes = Locked<[MaybeEvent<Int>]>([])
        _ = Maybe.just(2).subscribe { event in maybes.withLock { $0.append(event) } }
        _ = Maybe<Int>.empty().subscribe { event in maybes.withLock { $0.append(event) } }
        XCTAssertEqual(maybes.value, [.success(2), .completed])

        let completables = Locked<[CompletableEvent]>([])
        _ = Completable.empty().subscribe { event in completables.withLock { $0.append(event) } }
        _ = Completable.error(Failure()).subscribe { event in completables.withLock { $0.append(event) } }
        XCTAssertEqual(completables.value, [.completed, .error(Failure())])
    }

    func testRecordedTraitOutcomes() {
        XCTAssertEqual(
            [Recorded(time: 10, value: SingleEvent<Int>.success(1))],
            [Recorded(time: 10, value: SingleEvent<Int>.success(1))]
        )
        XCTAssertEqual(
            [Recorded(time: 10, value: MaybeEvent<Int>.completed)],
            [Recorded(time: 10, value: MaybeEvent<Int>.completed)]
        )
        XCTAssertEqual(
            [Recorded(time: 10, value: CompletableEvent.error(Failure()))],
            [Recorded(time: 10, value: CompletableEvent.error(Failure()))]
        )
    }
}
#endif

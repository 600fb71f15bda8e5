import TellerRx
import Testing

@testable import TellerTesting

@Suite struct RecordedEventsTests {
    @Test func variadicEventsKeepTheGivenOrder() {
        let events = Recorded.events(.next(210, 1), .next(220, 2), .completed(250))
        #expect(events == [.next(210, 1), .next(220, 2), .completed(250)])
    }

    @Test func arrayEventsReturnTheSameEvents() {
        let given: [Recorded<Event<String>>] = [.next(10, "a"), .error(20, TestingTestError())]
        #expect(Recorded.events(given) == given)
    }

    @Test func eventsFeedTestObservables() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Recorded.events(.next(210, 1), .completed(250)))
        let res = scheduler.start { xs.map { $0 * 2 } }
        #expect(res.events == Recorded.events(.next(210, 2), .completed(250)))
    }

    @Test func differencesAreNilForEqualArrays() {
        let events: [Recorded<Event<Int>>] = [.next(210, 1), .completed(250)]
        #expect(eventDifferences(events, events, equal: ==) == nil)
    }

    @Test func differencesListMismatchedAndExtraEvents() throws {
        let actual: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 9), .completed(250)]
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2)]
        let message = try #require(eventDifferences(actual, expected, equal: ==))
        #expect(message.contains("lhs[1]: next(9) @ 220"))
        #expect(message.contains("rhs[1]: next(2) @ 220"))
        #expect(message.contains("lhs[2]: completed @ 250"))
        #expect(!message.contains("[0]"))
    }

    @Test func singleOutcomesCompareThroughTheRecordedComparison() {
        let equal = recordedAreEqual(singleEventsAreEqual(_:_:) as (SingleEvent<Int>, SingleEvent<Int>) -> Bool)
        #expect(equal(Recorded(time: 1, value: .success(1)), Recorded(time: 1, value: .success(1))))
        #expect(!equal(Recorded(time: 1, value: .success(1)), Recorded(time: 2, value: .success(1))))
        #expect(
            !equal(
                Recorded(time: 1, value: .failure(TestingTestError())),
                Recorded(time: 1, value: .success(1))
            )
        )
    }
}

struct TestingTestError: Error, Equatable {}

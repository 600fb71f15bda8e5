import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@Suite struct MarbleDiagramTests {
    @Test func diagramCharactersBecomeEventsAtTheirTicks() {
        let events = Recorded.events("--a--b--|", values: ["a": 1, "b": 2], start: 200)
        #expect(events == [.next(202, 1), .next(205, 2), .completed(208)])
    }

    @Test func hashMarkIsTheGivenError() {
        let events = Recorded<Event<Int>>.events("-a#", values: ["a": 7], error: MarbleError(), ticksPerCharacter: 10)
        #expect(events == [.next(10, 7), .error(20, MarbleError())])
    }

    @Test func subscriptionDescriptionShowsOpenEnd() {
        #expect(Subscription(200).debugDescription == "(200, ∞)")
        #expect(Subscription(200, 300).debugDescription == "(200, 300)")
    }
}

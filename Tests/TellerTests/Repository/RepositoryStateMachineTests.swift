import Foundation
import TellerTestSupport
import Testing

@testable import Teller

/// The state machine alone: no threads, no schedulers. Inputs that make no sense in the current
/// state are ignored and reported, never crash.
@Suite struct RepositoryStateMachineTests {
    typealias Machine = RepositoryStateMachine<TestRequirements, [String]>

    let now = Date(timeIntervalSince1970: 10_000)
    let octocat = TestRequirements(username: "octocat")

    private func machine(automaticallyRefresh: Bool = true) -> Machine {
        Machine(
            configuration: .init(
                automaticallyRefresh: automaticallyRefresh,
                maxAgeOfCache: Period(unit: 1, component: .hour)
            )
        )
    }

    private func describe(_ actions: [Machine.Action]) -> [String] {
        actions.map(describe)
    }

    private func describe(_ action: Machine.Action) -> String {
        switch action {
        case .emit(let state):
            return "emit \(state.isFirstFetch ? "firstFetch" : (state.cacheExists ? "cache" : "noCache"))"
        case .observeCache: return "observeCache"
        case .stopObservingCache: return "stopObservingCache"
        case .joinFlight: return "joinFlight"
        case .leaveFlights: return "leaveFlights"
        case .respond(_, let result): return "respond \(result)"
        case .complete: return "complete"
        case .log(let event): return "log \(event)"
        case .extra(let never): switch never {}
        }
    }

    @Test func newTagStartsTheFirstFetchInTheFirstState() {
        var machine = machine()
        #expect(
            describe(machine.setRequirements(octocat, lastFetched: nil, now: now)) == ["joinFlight", "emit firstFetch"]
        )
    }

    @Test func aFinishedFlightNobodyWaitedForIsIgnoredAndReported() {
        var machine = machine(automaticallyRefresh: false)
        _ = machine.setRequirements(octocat, lastFetched: nil, now: now)
        let actions = machine.flightFinished(generation: 1, waiter: 99, result: .successful, lastFetched: now)
        #expect(
            describe(actions) == [
                "respond successful", "log ignored flight finished with no waiter for \"Repos for octocat\"",
            ]
        )
    }

    @Test func aCacheEmittedWhileNotObservedIsIgnoredAndReported() {
        var machine = machine()
        let actions = machine.cacheEmitted(generation: 7, cache: ["x"], isEmpty: false, now: now)
        #expect(describe(actions) == ["log ignored cache emitted while not observed for \"no requirements\""])
    }

    @Test func eventsOfEarlierRequirementsOnlyAnswerTheirCaller() {
        var machine = machine()
        _ = machine.setRequirements(octocat, lastFetched: nil, now: now)
        _ = machine.setRequirements(TestRequirements(username: "hubot"), lastFetched: now, now: now)
        let actions = machine.flightFinished(generation: 1, waiter: 1, result: .successful, lastFetched: now)
        #expect(describe(actions) == ["respond successful"])
    }

    @Test func afterShutDownNothingHappens() {
        var machine = machine()
        _ = machine.setRequirements(octocat, lastFetched: nil, now: now)
        #expect(describe(machine.shutDown()) == ["stopObservingCache", "leaveFlights", "complete"])
        #expect(describe(machine.shutDown()).isEmpty)
        #expect(describe(machine.setRequirements(octocat, lastFetched: nil, now: now)).isEmpty)
        #expect(describe(machine.refresh(waiter: 5, force: true, now: now)) == ["respond skipped(cancelled)"])
    }
}

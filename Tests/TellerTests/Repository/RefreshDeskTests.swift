import TellerRx
import TellerTestSupport
import Testing

@testable import Teller

/// The desk's own rules, which the public API reaches only under races: riding is refused while
/// a requirements change is queued, seats leave their flight only when nobody waits, and
/// riders are answered in the order they joined.
@Suite struct RefreshDeskTests {
    let log = Locked<[String]>([])

    private func makeDesk() -> RefreshDesk {
        let log = self.log
        return RefreshDesk(log: { event in log.withLock { $0.append(event.description) } })
    }

    private let anyPolicy = RefreshDesk.JoinPolicy(unforced: true, ifNoCache: true)

    @Test func nobodyRidesWithoutASeat() {
        let desk = makeDesk()
        #expect(desk.join(force: true, respond: { _ in }) == nil)
    }

    @Test func ridingFollowsTheSeatsPolicy() {
        let desk = makeDesk()
        let policy = RefreshDesk.JoinPolicy(unforced: false, ifNoCache: false)
        #expect(desk.openParty(lead: 1, tag: "t", policy: policy, token: Disposables.create()))
        #expect(desk.join(force: false, respond: { _ in }) == nil)
        #expect(desk.join(force: false, ifNoCache: true, respond: { _ in }) == nil)
        #expect(desk.join(force: true, respond: { _ in }) != nil)
        #expect(log.value == ["refresh joined the fetch running for \"t\""])
    }

    @Test func aQueuedRequirementsChangeStopsRidingUntilItIsProcessed() {
        let desk = makeDesk()
        #expect(desk.openParty(lead: 1, tag: "t", policy: anyPolicy, token: Disposables.create()))
        desk.requirementsChangeQueued()
        #expect(desk.join(force: true, respond: { _ in }) == nil)
        desk.requirementsChangeProcessed()
        #expect(desk.join(force: true, respond: { _ in }) != nil)
    }

    @Test func nobodyRidesAfterShutDown() {
        let desk = makeDesk()
        #expect(desk.openParty(lead: 1, tag: "t", policy: anyPolicy, token: Disposables.create()))
        desk.shutDown()
        #expect(desk.join(force: true, respond: { _ in }) == nil)
    }

    @Test func ridersAreAnsweredInJoiningOrderWithoutThoseWhoLeft() {
        let desk = makeDesk()
        let answers = Locked<[Int]>([])
        #expect(desk.openParty(lead: 1, tag: "t", policy: anyPolicy, token: Disposables.create()))
        let riders = (0..<4).map { index in
            desk.join(force: true, respond: { _ in answers.withLock { $0.append(index) } })
        }
        if let leaving = riders[1] { desk.leave(leaving) }
        for respond in desk.closeParty(of: 1) { respond(.successful) }
        #expect(answers.value == [0, 2, 3])
        #expect(desk.join(force: true, respond: { _ in }) == nil)
    }

    @Test func theSeatLeavesItsFlightOnlyWhenTheAnchorAndEveryRiderLeft() {
        let desk = makeDesk()
        let token = BooleanDisposable()
        #expect(desk.openParty(lead: 1, tag: "t", policy: anyPolicy, token: token))
        let rider = desk.join(force: true, respond: { _ in })
        desk.leadCancelled(1)
        #expect(!token.isDisposed)
        if let rider { desk.leave(rider) }
        #expect(token.isDisposed)
    }

    @Test func theSeatStaysWhileItsAnchorWaits() {
        let desk = makeDesk()
        let token = BooleanDisposable()
        #expect(desk.openParty(lead: 1, tag: "t", policy: anyPolicy, token: token))
        if let rider = desk.join(force: true, respond: { _ in }) { desk.leave(rider) }
        #expect(!token.isDisposed)
        #expect(log.value == ["refresh joined the fetch running for \"t\"", "refresh skipped for \"t\": cancelled"])
    }

    @Test func anAnchorCancelledBeforeItsSeatWasTakenGetsNoSeat() {
        let desk = makeDesk()
        desk.leadCancelled(1)
        #expect(!desk.openParty(lead: 1, tag: "t", policy: anyPolicy, token: Disposables.create()))
        #expect(desk.join(force: true, respond: { _ in }) == nil)
    }

    @Test func leavingAllFlightsHandsBackEveryTokenAndRider() {
        let desk = makeDesk()
        #expect(desk.openParty(lead: 1, tag: "a", policy: anyPolicy, token: BooleanDisposable()))
        _ = desk.join(force: true, respond: { _ in })
        #expect(desk.openParty(lead: 2, tag: "b", policy: anyPolicy, token: BooleanDisposable()))
        _ = desk.join(force: true, respond: { _ in })
        _ = desk.join(force: true, respond: { _ in })
        let (tokens, riders) = desk.leaveAll()
        #expect(tokens.count == 2)
        #expect(riders.map(\.tag) == ["a", "b", "b"])
        #expect(desk.join(force: true, respond: { _ in }) == nil)
    }
}

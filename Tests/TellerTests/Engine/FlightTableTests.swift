import Foundation
import Testing

@testable import Teller

/// The table of flights alone: no threads, no work, only what it decides.
@Suite struct FlightTableTests {
    typealias Table = FlightTable<String, String>

    let octocat = FlightKey(String.self, tag: "octocat")
    let hubot = FlightKey(String.self, tag: "hubot")

    @Test func theFirstMemberStartsAFlightAndTheNextJoinIt() throws {
        var table = Table()
        guard case .started(let flight, _, let work) = table.join(octocat, member: "a", newWork: { "work" }) else {
            Issue.record("the first member did not start a flight")
            return
        }
        #expect(work == "work")
        guard
            case .joined(let joined, _, let retry, let isSaving) = table.join(
                octocat,
                member: "b",
                newWork: { "second" }
            )
        else {
            Issue.record("the second member started another flight of the same key")
            return
        }
        #expect(joined == flight)
        #expect(retry == nil)
        #expect(!isSaving)
        guard case .started = table.join(hubot, member: "c", newWork: { "other" }) else {
            Issue.record("another key joined octocat's flight")
            return
        }
        #expect(table.finish(octocat, flight: flight)?.members == ["a", "b"])
    }

    @Test func theLastMemberLeavingCancelsAFlightThatIsNotSaving() {
        var table = Table()
        guard case .started(let flight, let a, _) = table.join(octocat, member: "a", newWork: { "work" }),
            case .joined(_, let b, _, _) = table.join(octocat, member: "b", newWork: { "" })
        else {
            Issue.record("no flight started")
            return
        }
        #expect(describe(table.leave(octocat, flight: flight, member: a)) == "a left")
        #expect(describe(table.leave(octocat, flight: flight, member: b)) == "b left, cancelled work")
        // Cancelled: its work may neither fetch nor save, and its end is nobody's.
        #expect(!table.mayFetch(octocat, flight: flight))
        #expect(table.beginSave(octocat, flight: flight) == nil)
        #expect(table.finish(octocat, flight: flight) == nil)
    }

    @Test func aFlightThatSavesIsNotCancelledItsMembersHearItsEndAndANewMemberJoinsIt() {
        var table = Table()
        guard case .started(let flight, let a, _) = table.join(octocat, member: "a", newWork: { "work" }) else {
            Issue.record("no flight started")
            return
        }
        #expect(table.beginSave(octocat, flight: flight) == ["a"])
        #expect(describe(table.leave(octocat, flight: flight, member: a)) == "stays until saved")
        #expect(table.mayFetch(octocat, flight: flight))
        guard case .joined(let joined, _, _, let isSaving) = table.join(octocat, member: "b", newWork: { "second" })
        else {
            Issue.record("a second flight started while the first one saves")
            return
        }
        #expect(joined == flight)
        // It was not there when the save began: it is told now, so it reads no half-written cache.
        #expect(isSaving)
        #expect(table.finish(octocat, flight: flight)?.members == ["a", "b"])
    }

    @Test func aMemberThatJoinsDuringARetryDelayIsToldOfTheRetry() {
        var table = Table()
        guard case .started(let flight, _, _) = table.join(octocat, member: "a", newWork: { "work" }) else {
            Issue.record("no flight started")
            return
        }
        let retry = PendingRetry(failedAttempts: 1, lastError: TestFailure(), nextAttemptAt: .distantFuture)
        #expect(table.retryChanged(octocat, flight: flight, to: (retry, .seconds(2))) == ["a"])
        guard case .joined(_, _, let told, _) = table.join(octocat, member: "b", newWork: { "" }) else {
            Issue.record("no flight to join")
            return
        }
        #expect(told?.retry == retry)
        #expect(told?.delay == .seconds(2))
        #expect(table.retryChanged(octocat, flight: flight, to: nil) == ["a", "b"])
        guard case .joined(_, _, let none, _) = table.join(octocat, member: "c", newWork: { "" }) else {
            Issue.record("no flight to join")
            return
        }
        #expect(none == nil)
    }

    @Test func aLeaveOrAnEventOfAnEndedFlightChangesNothing() {
        var table = Table()
        guard case .started(let first, let a, _) = table.join(octocat, member: "a", newWork: { "first" }) else {
            Issue.record("no flight started")
            return
        }
        _ = table.finish(octocat, flight: first)
        guard case .started(let second, _, _) = table.join(octocat, member: "b", newWork: { "second" }) else {
            Issue.record("no second flight started")
            return
        }
        #expect(describe(table.leave(octocat, flight: first, member: a)) == "not a member")
        #expect(table.retryChanged(octocat, flight: first, to: nil).isEmpty)
        #expect(table.beginSave(octocat, flight: first) == nil)
        #expect(table.finish(octocat, flight: second)?.members == ["b"])
    }
}

/// What `leave` did, as a line.
private func describe(_ left: (FlightTable<String, String>.Left, String?)) -> String {
    switch left.0 {
    case .left(let cancelled):
        "\(left.1 ?? "?") left" + (cancelled.map { ", cancelled \($0)" } ?? "")
    case .staysUntilSaved: "stays until saved"
    case .notAMember: "not a member"
    }
}

@Suite struct LanesTests {
    let strings = ObjectIdentifier(String.self)
    let ints = ObjectIdentifier(Int.self)

    @Test func jobsOfOneLaneRunOneAtATimeInOrderAndOtherLanesDoNotWait() {
        var lanes = Lanes<ObjectIdentifier, String>()
        #expect(lanes.enqueue(strings, "first") == "first")
        #expect(lanes.enqueue(strings, "second") == nil)
        #expect(lanes.enqueue(ints, "other") == "other")
        #expect(lanes.enqueue(strings, "third") == nil)
        #expect(lanes.finished(strings) == "second")
        #expect(lanes.finished(strings) == "third")
        #expect(lanes.finished(strings) == nil)
        // Free again: the next write runs at once.
        #expect(lanes.enqueue(strings, "fourth") == "fourth")
    }
}

private struct TestFailure: Error {}

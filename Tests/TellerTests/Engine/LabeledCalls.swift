@testable import Teller

/// Refresh calls for tests that drive a machine by hand: each call has a number, taken in the
/// order the test asks for them, so a `.respond` action reads as "respond w2 successful". It
/// also remembers the flight wait joined last, for the inputs that answer it.
final class LabeledCalls {
    private var labels: [ObjectIdentifier: Int] = [:]
    private var calls: [Int: RefreshCall] = [:]
    private var lastLabel = 0
    /// The id of the flight wait in the last `.joinFlight` described.
    private(set) var lastFlight: UInt64 = 0

    /// Takes the next number, for a call made later with ``call(_:_:)``.
    func label() -> Int {
        lastLabel += 1
        return lastLabel
    }

    /// The call numbered `label`, made with `kind` the first time it is asked for.
    func call(_ label: Int, _ kind: RefreshCall.Kind) -> RefreshCall {
        if let call = calls[label] { return call }
        let call = RefreshCall(kind, single: { _ in })
        calls[label] = call
        labels[ObjectIdentifier(call)] = label
        return call
    }

    /// A new call of `kind`, with its number.
    func make(_ kind: RefreshCall.Kind) -> (label: Int, call: RefreshCall) {
        let label = label()
        return (label, call(label, kind))
    }

    /// The numbers of `calls`, in order, as "w1 w2".
    func describe(_ calls: [RefreshCall]) -> String {
        calls.map { "w" + (labels[ObjectIdentifier($0)].map(String.init) ?? "?") }.joined(separator: " ")
    }

    /// Notes the flight a `.joinFlight` action joins.
    func joined(_ flight: UInt64) {
        lastFlight = flight
    }
}

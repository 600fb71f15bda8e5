import TellerRx
import Testing

/// Runs `body`, which misbehaves on purpose, with the TellerRx warnings it causes captured
/// instead of printed, and expects each of `expected` among them (as often as it is listed),
/// in debug builds; release builds report nothing.
///
/// Only messages equal to one of `expected` are captured. Another test running at the same
/// time may cause the same message, so this expects "at least", never "exactly": a capture
/// never loses a message of its own (see `MisuseCapture`).
func expectMisuse<Result>(
    _ expected: String...,
    sourceLocation: SourceLocation = #_sourceLocation,
    during body: () throws -> Result
) rethrows -> Result {
    let wanted = Set(expected)
    let capture = MisuseCapture(accepting: { wanted.contains($0) })
    defer {
        if MisuseCapture.isReporting {
            let captured = capture.messages
            for message in wanted {
                let times = expected.count { $0 == message }
                #expect(
                    captured.count { $0 == message } >= times,
                    "expected \(times)× \"\(message)\"; captured \(captured)",
                    sourceLocation: sourceLocation
                )
            }
        }
    }
    return try capture.during(body)
}

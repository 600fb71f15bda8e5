#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reports misuse that TellerRx tolerates (an event sent after a terminal event, an unhandled
/// error) the way RxSwift's debug warnings do: a line on standard error in debug builds, nothing
/// in release builds. The event itself is always dropped, never delivered.
///
/// While a ``MisuseCapture`` that accepts the message is active, the message goes to it instead.
@inline(__always)
func reportMisuse(_ message: @autoclosure () -> String) {
    #if DEBUG
    MisuseCapture.deliver(message())
    #endif
}

/// Takes misuse reports instead of standard error, for a test that misbehaves on purpose (and
/// can then assert what was reported) or that checks nothing was. Only in debug builds: release
/// builds report nothing, so a capture there stays empty.
///
/// Captures are process-wide, as reports come from whatever thread the misuse happened on (a
/// Dispatch queue, a scheduler's thread), which no task-local reaches. Tests run in parallel,
/// so a capture takes only the messages its `accepts` closure accepts: make it match text
/// that only its own test produces (an error with its own id, an element only it sends), or,
/// to check that nothing was reported, only reports made on the test's own queues (`accepts`
/// runs on the reporting thread, so it can ask `DispatchQueue.getSpecific(key:)`). A
/// message goes to *every* active capture that accepts it, so no test ever loses a report to
/// another; overlapping captures see each other's messages, and should then assert what they
/// saw contains what they caused rather than an exact count. A message no capture accepts is
/// printed as usual.
///
/// `package`: a tool for this package's tests, not part of TellerRx's API.
package final class MisuseCapture: Sendable {
    private let accepts: @Sendable (String) -> Bool
    private let received = LockedState<[String]>([])

    /// The active captures, in no particular order.
    private static let active = LockedState<[MisuseCapture]>([])

    /// A capture of the reports `accepts` accepts, active only while ``during(_:)`` runs.
    /// `accepts` runs on the reporting thread, outside any lock.
    package init(accepting accepts: @escaping @Sendable (String) -> Bool) {
        self.accepts = accepts
    }

    /// Whether misuse is reported at all: in debug builds. In release builds every capture
    /// stays empty.
    package static var isReporting: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// The messages taken so far, oldest first, without the "TellerRx warning: " prefix.
    package var messages: [String] {
        received.value
    }

    /// Runs `body` with this capture active (for reports from any thread) until it returns.
    /// Don't nest a capture in itself.
    package func during<Result>(_ body: () throws -> Result) rethrows -> Result {
        start()
        defer { stop() }
        return try body()
    }

    private func start() {
        Self.active.withLock { $0.append(self) }
    }

    private func stop() {
        Self.active.withLock { $0.removeAll { $0 === self } }
    }

    /// Hands `message` to every active capture that accepts it, or prints it if none does.
    static func deliver(_ message: String) {
        // Copied out: `accepts` is test code, and runs after the lock is released.
        let captures = active.withLock { $0 }
        var isCaptured = false
        for capture in captures where capture.accepts(message) {
            capture.received.withLock { $0.append(message) }
            isCaptured = true
        }
        if !isCaptured {
            let line = "TellerRx warning: \(message)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
    }
}

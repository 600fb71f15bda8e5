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
@inline(__always)
func reportMisuse(_ message: @autoclosure () -> String) {
    #if DEBUG
    let line = "TellerRx warning: \(message())\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    #endif
}

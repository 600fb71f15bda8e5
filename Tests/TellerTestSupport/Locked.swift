@_spi(TellerInternals) import TellerRx

/// The tests' thread-safe box: the package's one lock (which ThreadSanitizer sees), under the
/// name the tests have always used.
package typealias Locked<Value> = LockedState<Value>

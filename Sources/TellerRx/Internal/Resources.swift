import Synchronization

/// Counts the live TellerRx objects (sinks, subscriptions, subjects' observers, scheduled work),
/// like RxSwift's `Resources.total`, so tests can assert that a finished or disposed chain freed
/// everything it held.
///
/// Counting is compiled into debug builds of TellerRx only; in release builds ``total`` is
/// always 0 and counting costs nothing. Compare the value before and after the code under test
/// rather than against 0, and do so in a serialized test suite: other tests running in parallel
/// in the same process change it too.
public enum Resources {
    private static let counter = Atomic<Int>(0)

    /// The number of TellerRx resources alive now (debug builds; 0 in release builds).
    public static var total: Int {
        counter.load(ordering: .relaxed)
    }

    /// Whether this build of TellerRx counts resources (true in debug builds).
    public static var isTracking: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    @inline(__always)
    static func increment() {
        #if DEBUG
        counter.wrappingAdd(1, ordering: .relaxed)
        #endif
    }

    @inline(__always)
    static func decrement() {
        #if DEBUG
        counter.wrappingSubtract(1, ordering: .relaxed)
        #endif
    }
}

import Foundation

/// A small NSLock-guarded box for the testing helpers, which are not on any hot path.
/// (NSLock is visible to ThreadSanitizer, unlike `Synchronization.Mutex` on Linux.)
final class TestLock<State>: @unchecked Sendable {
    // @unchecked: `state` is only reached inside `withLock`.
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

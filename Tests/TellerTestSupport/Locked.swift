import Foundation

/// A thread-safe box for tests (NSLock, which ThreadSanitizer sees).
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `stored` is only reached under `lock`.
    private let lock = NSLock()
    private var stored: Value

    package init(_ value: Value) {
        stored = value
    }

    package var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}

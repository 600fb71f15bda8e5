import Foundation

/// A thread-safe box for tests (NSLock, which ThreadSanitizer sees).
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `stored` is only reached under `lock`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}

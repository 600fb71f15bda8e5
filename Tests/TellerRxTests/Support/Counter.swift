import Foundation

/// A thread-safe box for tests that record or count from callbacks (NSLock so ThreadSanitizer
/// sees it).
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only reached under `lock`.
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

extension Locked where Value == [Int] {
    func append(_ element: Int) {
        withLock { $0.append(element) }
    }
}

extension Locked where Value == Int {
    func increment() {
        withLock { $0 += 1 }
    }
}

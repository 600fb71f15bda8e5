@_spi(TellerInternals) import TellerRx

/// The tests' thread-safe box for recording or counting from callbacks: the package's one
/// lock (which ThreadSanitizer sees), under the name the tests have always used.
typealias Locked<Value> = LockedState<Value>

extension LockedState where State == [Int] {
    func append(_ element: Int) {
        withLock { $0.append(element) }
    }
}

extension LockedState where State == Int {
    func increment() {
        withLock { $0 += 1 }
    }
}

import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A sink whose events come from more than one thread (a source and a timer) and that, as in
/// RxSwift, forwards them under one recursive lock: the documented exception to "never call
/// downstream under a lock".
///
/// What it must not do under that lock is tear down: disposing a source can take the source's
/// lock, and a thread holding that lock may be sending into this sink, waiting for this one
/// (the deadlock of RxSwift issues #2703 and #2711). So a `dispose()` made on the thread that
/// holds the lock, by the sink itself after its terminal event or by an observer downstream
/// from inside `onNext`, stops forwarding at once and disposes the upstream subscription
/// when that thread releases the lock.
class SerializingSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: `depth` and `disposeOnUnlock` are only touched while holding `lock`;
    // `owner` is atomic.
    private let lock = Lock(recursive: true)
    /// The thread holding `lock`, or 0.
    private let owner = Atomic<UInt>(0)
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var disposeOnUnlock = false

    /// Takes the delivery lock; pair with ``unlockDelivery()``. Recursive.
    final func lockDelivery() {
        lock.lock()
        if depth == 0 {
            owner.store(currentThread(), ordering: .relaxed)
        }
        depth += 1
    }

    /// Releases the delivery lock, then runs a teardown that was asked for under it.
    final func unlockDelivery() {
        depth -= 1
        guard depth == 0 else {
            lock.unlock()
            return
        }
        owner.store(0, ordering: .relaxed)
        let mustDispose = disposeOnUnlock
        disposeOnUnlock = false
        lock.unlock()
        if mustDispose {
            super.dispose()
        }
    }

    /// Runs `body` holding the delivery lock.
    final func withDeliveryLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lockDelivery()
        defer { unlockDelivery() }
        return try body()
    }

    override func dispose() {
        // Only the thread that stored its own id can find it here.
        if owner.load(ordering: .relaxed) == currentThread() {
            _ = markStopped()
            disposeOnUnlock = true
            return
        }
        super.dispose()
    }
}

@inline(__always)
private func currentThread() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

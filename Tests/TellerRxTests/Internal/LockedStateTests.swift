import Dispatch
import Testing

@testable import TellerRx

/// The one lock, under contention from many threads. Each stress test checks an invariant that
/// unsynchronized code breaks: two fields updated together, and a count of increments.
@Suite struct LockedStateTests {
    private static let threads = 8
    private static let iterations = 20_000

    /// Two fields that only ever change together: a thread that saw them apart, or a lost
    /// increment, means two threads were inside `withLock` at once.
    private struct Pair {
        var up = 0
        var down = 0
        var torn = 0
    }

    @Test func withLockExcludesOtherThreads() {
        let state = LockedState(Pair())
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.iterations {
                state.withLock { pair in
                    if pair.up + pair.down != 0 { pair.torn += 1 }
                    pair.up += 1
                    pair.down -= 1
                }
            }
        }
        let pair = state.value
        #expect(pair.torn == 0)
        #expect(pair.up == Self.threads * Self.iterations)
        #expect(pair.down == -Self.threads * Self.iterations)
    }

    @Test func aLockWithoutStateGuardsMemoryItDoesNotHold() {
        let lock = Lock()
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        counter.initialize(to: 0)
        defer { counter.deallocate() }
        let shared = UncheckedSendable(counter)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.iterations {
                lock.withLock { shared.value.pointee += 1 }
            }
        }
        #expect(lock.withLock { counter.pointee } == Self.threads * Self.iterations)
    }

    @Test func lockAndUnlockPairsExcludeOtherThreads() {
        let lock = Lock()
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        counter.initialize(to: 0)
        defer { counter.deallocate() }
        let shared = UncheckedSendable(counter)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.iterations {
                lock.lock()
                shared.value.pointee += 1
                lock.unlock()
            }
        }
        #expect(lock.withLock { counter.pointee } == Self.threads * Self.iterations)
    }

    /// The recursive form (multi-source operators): the holder may take it again, and it still
    /// excludes every other thread, from the outer acquisition to the outer release.
    @Test func aRecursiveLockIsReentrantAndStillExcludesOtherThreads() {
        let lock = Lock(recursive: true)
        let counters = UnsafeMutablePointer<Int>.allocate(capacity: 2)  // count, torn
        counters.initialize(repeating: 0, count: 2)
        defer { counters.deallocate() }
        let shared = UncheckedSendable(counters)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.iterations {
                lock.withLock {
                    let before = shared.value[0]
                    lock.withLock { shared.value[0] += 1 }
                    if shared.value[0] != before + 1 { shared.value[1] += 1 }
                }
            }
        }
        #expect(lock.withLock { counters[0] } == Self.threads * Self.iterations)
        #expect(lock.withLock { counters[1] } == 0)
    }

    @Test func theStateIsFreedWithTheLastCopyOfTheLock() {
        weak var freed: Probe?
        do {
            let probe = Probe()
            freed = probe
            let state = LockedState(probe)
            let copy = state
            #expect(copy.value === probe)
        }
        #expect(freed == nil)
    }
}

private final class Probe {}

import Dispatch
import Testing

@_spi(TellerInternals) @testable import TellerRx

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
        let counts = Self.hammer(lock) { counters in
            lock.withLock { counters[0] += 1 }
        }
        #expect(counts.total == Self.threads * Self.iterations)
    }

    @Test func lockAndUnlockPairsExcludeOtherThreads() {
        let lock = Lock()
        let counts = Self.hammer(lock) { counters in
            lock.lock()
            counters[0] += 1
            lock.unlock()
        }
        #expect(counts.total == Self.threads * Self.iterations)
    }

    /// Runs `step` `iterations` times on each of `threads` threads at once, on two counters
    /// that only `step`'s own locking guards (a total, and a count of torn updates), and
    /// returns them, read under `lock`.
    private static func hammer(
        _ lock: Lock,
        _ step: @escaping @Sendable (UnsafeMutablePointer<Int>) -> Void
    ) -> (total: Int, torn: Int) {
        let counters = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        counters.initialize(repeating: 0, count: 2)
        defer { counters.deallocate() }
        // Unchecked: the point of the test is that `step`'s locking makes the access safe.
        let shared = UncheckedSendable(counters)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<iterations { step(shared.value) }
        }
        return lock.withLock { (counters[0], counters[1]) }
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

import Dispatch
import Testing

@_spi(TellerInternals) @testable import TellerRx

/// The one atomic type, raced by many threads at once. Each test checks what a site relies on
/// and a non-atomic read-then-write breaks: exactly one winner, no lost change. Winners are
/// counted under a ``LockedState``, not with the type under test.
@Suite struct AtomicStateTests {
    private static let threads = 8
    private static let rounds = 500
    private static let iterations = 20_000

    @Test func exactlyOneOfManyThreadsRacingToSetAFlagWins() {
        for _ in 0..<Self.rounds {
            let flag = AtomicState(false)
            let winners = LockedState(0)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
                if flag.set() { winners.withLock { $0 += 1 } }
            }
            let isSet = flag.isSet
            #expect(winners.value == 1)
            #expect(isSet)
        }
    }

    @Test func exactlyOneOfManyThreadsRacingToCompareExchangeAStateWins() {
        for _ in 0..<Self.rounds {
            let state = AtomicState(0)
            let winners = LockedState<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                if state.compareExchange(expected: 0, desired: thread + 1).exchanged {
                    winners.withLock { $0.append(thread + 1) }
                }
            }
            let won = winners.value
            let final = state.load()
            #expect(won.count == 1)
            #expect(won.first == final)
        }
    }

    @Test func concurrentIncrementsAreNoneLostAndExactlyOneDecrementLeavesZero() {
        let count = AtomicState(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.iterations { count.increment() }
        }
        let raised = count.load()
        #expect(raised == Self.threads * Self.iterations)
        let zeroes = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.iterations {
                if count.decrement() == 0 { zeroes.withLock { $0 += 1 } }
            }
        }
        let lowered = count.load()
        #expect(zeroes.value == 1)
        #expect(lowered == 0)
    }

    @Test func eachOfManyThreadsSettingItsOwnBitSeesItClearAndNoBitIsLost() {
        for _ in 0..<Self.rounds {
            let word = AtomicState(0)
            let firsts = LockedState(0)
            let clearBefore = LockedState(0)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                let bit = 1 << thread
                let old = word.bitwiseOr(bit).oldValue
                if old & bit == 0 { clearBefore.withLock { $0 += 1 } }
                if old == 0 { firsts.withLock { $0 += 1 } }
            }
            let bits = word.load()
            #expect(bits == (1 << Self.threads) - 1)
            #expect(clearBefore.value == Self.threads)
            #expect(firsts.value == 1)
        }
    }

    @Test func exactlyOneOfManyThreadsExchangingAPointerOutTakesIt() {
        for _ in 0..<Self.rounds {
            let slot = AtomicState<Unmanaged<Payload>?>(Unmanaged.passRetained(Payload()))
            let takers = LockedState(0)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
                if let taken = slot.exchange(nil) {
                    taken.release()
                    takers.withLock { $0 += 1 }
                }
            }
            let left = slot.load()
            #expect(takers.value == 1)
            #expect(left == nil)
        }
    }
}

private final class Payload: Sendable {}

import Dispatch
import Testing

@testable import TellerRx

/// The drain that serializes multi-source and timer operators without a recursive lock: work
/// never overlaps, never nests, and queued work runs in the order it was queued.
@Suite struct SerialDrainTests {
    /// The drain is noncopyable and must stay put: kept in a class, as operators keep it.
    private final class Holder: Sendable {
        let drain = SerialDrain()
    }

    @Test func workQueuedFromInsideWorkRunsAfterItInTheOrderItWasQueued() {
        let holder = Holder()
        let log = LockedState([String]())
        holder.drain.run {
            log.withLock { $0.append("outer begins") }
            holder.drain.run { log.withLock { $0.append("first queued") } }
            holder.drain.run { log.withLock { $0.append("second queued") } }
            log.withLock { $0.append("outer ends") }
        }
        #expect(log.value == ["outer begins", "outer ends", "first queued", "second queued"])
    }

    @Test func enteringABusyDrainFailsAndItsQueuedWorkRunsWhenTheHolderDrains() {
        let holder = Holder()
        let log = LockedState([String]())
        let entered = holder.drain.tryEnter()
        let enteredAgain = holder.drain.tryEnter()
        #expect(entered)
        #expect(!enteredAgain)
        holder.drain.run { log.withLock { $0.append("queued") } }
        #expect(log.value.isEmpty)
        holder.drain.leave()
        #expect(log.value == ["queued"])
        let enteredOnceIdle = holder.drain.tryEnter()
        #expect(enteredOnceIdle)
        holder.drain.leave()
    }

    /// Every thread sends work at once; a piece of work that found another one running, or an
    /// increment lost, means two ran together. Once every thread has returned, nothing is left
    /// queued: the thread that drains returns only with the queue empty.
    @Test func workSentFromManyThreadsNeverOverlapsAndAllOfItRuns() {
        let threads = 8
        let iterations = 5_000
        let holder = Holder()
        let counters = UnsafeMutablePointer<Int>.allocate(capacity: 3)
        counters.initialize(repeating: 0, count: 3)
        defer { counters.deallocate() }
        // Unchecked: the point of the test is that the drain makes the access safe.
        let shared = UncheckedSendable(counters)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<iterations {
                holder.drain.run {
                    let counters = shared.value
                    if counters[2] != 0 { counters[1] += 1 }
                    counters[2] = 1
                    counters[0] += 1
                    counters[2] = 0
                }
            }
        }
        // Read after `concurrentPerform` has joined every thread.
        #expect(counters[0] == threads * iterations)
        #expect(counters[1] == 0)
    }
}

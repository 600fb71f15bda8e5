import Dispatch
import Testing

@_spi(TellerInternals) @testable import TellerRx

/// The drain that serializes multi-source and timer operators without a recursive lock: work
/// never overlaps, never nests, and queued work runs in the order it was queued.
@Suite struct SerialDrainTests {
    @Test func workQueuedFromInsideWorkRunsAfterItInTheOrderItWasQueued() {
        let drain = SerialDrain()
        let log = LockedState([String]())
        drain.run {
            log.withLock { $0.append("outer begins") }
            drain.run { log.withLock { $0.append("first queued") } }
            drain.run { log.withLock { $0.append("second queued") } }
            log.withLock { $0.append("outer ends") }
        }
        #expect(log.value == ["outer begins", "outer ends", "first queued", "second queued"])
    }

    @Test func enteringABusyDrainFailsAndItsQueuedWorkRunsWhenTheHolderDrains() {
        let drain = SerialDrain()
        let log = LockedState([String]())
        #expect(drain.tryEnter())
        #expect(!drain.tryEnter())
        drain.run { log.withLock { $0.append("queued") } }
        #expect(log.value.isEmpty)
        drain.drain()
        #expect(log.value == ["queued"])
        #expect(drain.tryEnter())
        drain.drain()
    }

    /// Every thread sends work at once; a piece of work that found another one running, or an
    /// increment lost, means two ran together. Once every thread has returned, nothing is left
    /// queued: the thread that drains returns only with the queue empty.
    @Test func workSentFromManyThreadsNeverOverlapsAndAllOfItRuns() {
        let threads = 8
        let iterations = 5_000
        let drain = SerialDrain()
        let counters = UnsafeMutablePointer<Int>.allocate(capacity: 3)
        counters.initialize(repeating: 0, count: 3)
        defer { counters.deallocate() }
        // Unchecked: the point of the test is that the drain makes the access safe.
        let shared = UncheckedSendable(counters)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<iterations {
                drain.run {
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

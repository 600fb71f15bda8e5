@_spi(TellerInternals) import TellerRx
import Testing

/// `SerialDisposable` from many threads: real threads set, read and dispose at once; every
/// disposable set must end up disposed exactly once, whichever thread disposes it, and a read
/// sees the disposable set, whoever else reads at the same time. Run them under
/// ThreadSanitizer too.
@Suite struct SerialDisposableStressTests {
    static let count = 2_000
    /// Enough reads on each thread that two land at the same moment many times over.
    static let reads = 50_000

    @Test func serialDisposableDisposesEverySetDisposableOnceWhileAnotherThreadReads() {
        let serial = SerialDisposable()
        let disposals = Locked(Array(repeating: 0, count: Self.count))
        concurrently(2) { index in
            if index == 0 {
                for number in 0..<Self.count {
                    serial.disposable = Disposables.create { disposals.withLock { $0[number] += 1 } }
                }
            } else {
                // As many reads as sets, not "until the sets are done": Dispatch may run both
                // iterations on one thread, one after the other.
                for _ in 0..<Self.count {
                    _ = serial.disposable
                }
            }
        }
        serial.dispose()
        #expect(serial.isDisposed)
        #expect(disposals.value.allSatisfy { $0 == 1 })
    }

    @Test func serialDisposableReadsOnManyThreadsAtOnceAllSeeTheDisposableSet() {
        let serial = SerialDisposable()
        let set = BooleanDisposable()
        serial.disposable = set
        let misses = Locked(0)
        concurrently(4) { _ in
            for _ in 0..<Self.reads where serial.disposable as AnyObject !== set {
                misses.increment()
            }
        }
        #expect(misses.value == 0)
        #expect(!set.isDisposed)
    }

    @Test func serialDisposableReadReturnsTheDisposableSetLast() {
        let log = Locked<[Int]>([])
        let serial = SerialDisposable()
        serial.disposable = Disposables.create { log.append(1) }
        serial.disposable = Disposables.create { log.append(2) }
        serial.disposable.dispose()
        #expect(log.value == [1, 2])
        #expect(!serial.isDisposed)
    }
}

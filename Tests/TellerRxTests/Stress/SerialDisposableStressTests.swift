import TellerRx
import Testing

/// `SerialDisposable` is lock-free: a read takes the current disposable out for a moment and
/// puts it back. Real threads set, read and dispose at once; every disposable set must end up
/// disposed exactly once, whichever thread disposes it. Run them under ThreadSanitizer too.
@Suite struct SerialDisposableStressTests {
    static let count = 2_000

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

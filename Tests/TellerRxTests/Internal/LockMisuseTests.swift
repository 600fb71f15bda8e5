import Dispatch
import Foundation
import Testing

@_spi(TellerInternals) @testable import TellerRx

/// Debug builds lock with an error-checking mutex, as swift-nio does: taking a lock the thread
/// already holds, or releasing one another thread holds, stops the process at once instead of
/// deadlocking or corrupting state. Each case runs in a child process (an exit test).
#if DEBUG
@Suite struct LockMisuseTests {
    @Test func takingALockTheThreadAlreadyHoldsTraps() async {
        await #expect(processExitsWith: .failure) {
            let lock = Lock()
            lock.lock()
            lock.lock()
        }
    }

    @Test func releasingALockAnotherThreadHoldsTraps() async {
        await #expect(processExitsWith: .failure) {
            let lock = Lock()
            let held = DispatchSemaphore(value: 0)
            let never = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                lock.lock()
                held.signal()
                never.wait()
            }
            held.wait()
            lock.unlock()
        }
    }

    @Test func releasingALockNobodyHoldsTraps() async {
        await #expect(processExitsWith: .failure) {
            Lock().unlock()
        }
    }
}
#endif

import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import Testing

/// Tells whether code runs on a given queue (or a queue targeting it), with
/// `DispatchQueue.setSpecific`/`getSpecific`.
final class QueueMarker: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<UInt8>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    /// Whether the caller runs on `queue` (or on a queue that targets it).
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == 1
    }
}

/// Generous wait for real-thread tests: long enough never to fire on a loaded machine, short
/// enough that a broken test fails instead of hanging.
let realTimeout = DispatchTimeInterval.seconds(10)

extension DispatchSemaphore {
    /// Waits up to `realTimeout`; returns whether the semaphore was signalled.
    func waitOrTimeOut() -> Bool {
        wait(timeout: .now() + realTimeout) == .success
    }
}

/// Schedules a no-op on `scheduler` after `dueTime` and waits (up to `realTimeout`) for it to
/// run: a fence for checking afterwards that something due earlier on the same serial queue
/// did not happen. Returns whether the fence ran.
func passFence(on scheduler: some SchedulerType, after dueTime: RxTimeInterval) -> Bool {
    let fence = DispatchSemaphore(value: 0)
    _ = scheduler.scheduleRelative((), dueTime: dueTime) { _ in
        fence.signal()
        return Disposables.create()
    }
    return fence.waitOrTimeOut()
}

/// An object whose deallocation can be observed through `weak` references, to check that an
/// operator frees what it held.
final class Tracked: Sendable {
    let id: Int

    init(_ id: Int) {
        self.id = id
    }
}

/// Weak references to `Tracked` objects, readable from any thread.
final class WeakRefs: Sendable {
    private struct Weak {
        weak var object: Tracked?
    }

    private let refs = LockedState<[Weak]>([])

    func track(_ object: Tracked) {
        refs.withLock { $0.append(Weak(object: object)) }
    }

    /// How many tracked objects are still alive.
    var aliveCount: Int {
        refs.withLock { $0.filter { $0.object != nil }.count }
    }
}

/// Whether this test may block its thread while main-queue work it waits for runs. On the main
/// thread it may not (it would deadlock: PLATFORM-NOTES), so the test is skipped there.
func mayBlockWaitingForMainQueue() throws -> Bool {
    guard Thread.isMainThread else { return true }
    #if compiler(>=6.3)
    try Test.cancel("Skipped on the main thread: waiting here would block the main queue under test.")
    #else
    return false
    #endif
}

/// Tells whether code runs on the main queue. A queue-specific key, not `Thread.isMainThread`:
/// after `dispatchMain()` (as under Swift Testing on Linux) a worker thread drains the main queue.
enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == 1
    }
}

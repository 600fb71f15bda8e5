import Dispatch
import Foundation

/// Runs work on the main queue: the UI thread of an app.
///
/// ``instance`` runs work at once when it is scheduled from the main thread and nothing else is
/// queued ahead of it (as RxSwift's does), otherwise asynchronously on the main queue.
/// ``asyncInstance`` always goes through the queue, which also breaks re-entrant emission
/// cycles. A process without a main run loop (a server, a command-line tool) never runs main-queue
/// work unless it calls `dispatchMain()`; give such code another scheduler.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    // @unchecked: the only mutable state is the locked `pending` count.
    /// How many actions are queued or running, so an immediate run never overtakes queued work.
    /// A queued action counts until it returns (as in RxSwift), so work it schedules goes behind
    /// it on the queue instead of running nested inside it.
    private let pending = LockedState(0)

    /// The main-thread scheduler that runs work immediately when already on the main thread.
    public static let instance = MainScheduler()

    /// A main-queue scheduler that always schedules asynchronously.
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: .main)

    /// Creates a scheduler on the main queue. Prefer ``instance``.
    public init() {
        super.init(serialQueue: .main)
    }

    /// Marks the main queue, so work it runs is recognised even when a worker thread runs it:
    /// after `dispatchMain()` (servers, command-line tools, Swift Testing on Linux) the main
    /// queue is drained by a thread that is not the process's main thread.
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main thread, or on the main queue (which after
    /// `dispatchMain()` may be drained by another thread).
    public static var isMainThread: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    /// Stops with a clear message unless called on the main thread (or the main queue).
    ///
    /// - Parameter errorMessage: What to say instead of the default message.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        precondition(isMainThread, errorMessage ?? "Running on a background thread where the main thread is required.")
    }

    /// Runs `action` now if on the main thread (or the main queue) with nothing queued ahead,
    /// else on the main queue.
    ///
    /// "Queued ahead" includes the action running now: work scheduled from inside an action
    /// that came through the queue is queued too, so it runs after everything queued before it.
    ///
    /// ```swift
    /// // On the main thread, nothing queued:
    /// _ = MainScheduler.instance.schedule(()) { _ in      // runs at once: prints 1, 2
    ///     print(1)
    ///     _ = MainScheduler.instance.schedule(()) { _ in  // queued: prints 3, 4, then 5
    ///         print(3)
    ///         _ = MainScheduler.instance.schedule(()) { _ in print(5); return Disposables.create() }
    ///         print(4)
    ///         return Disposables.create()
    ///     }
    ///     print(2)
    ///     return Disposables.create()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The value passed to `action`.
    ///   - action: The work; its disposable is disposed when the returned one is.
    /// - Returns: A disposable that cancels the work if it has not run yet.
    public override func schedule<StateType: Sendable>(
        _ state: StateType,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let queuedAhead = pending.withLock { count -> Int in
            count += 1
            return count - 1
        }
        if queuedAhead == 0 && MainScheduler.isMainThread {
            defer { pending.withLock { $0 -= 1 } }
            return action(state)
        }
        let work = ScheduledWork { action(state) }
        DispatchQueue.main.async { [pending] in
            work.run()
            pending.withLock { $0 -= 1 }
        }
        return work
    }
}

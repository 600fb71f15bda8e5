#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs work on the calling thread, after the work already running there finishes.
///
/// The first action scheduled on a thread runs at once; actions it schedules are queued and
/// run in order when it returns (a trampoline). This turns recursion into iteration, so
/// `Observable.of` and `Observable.from` emit in order without growing the stack.
public final class CurrentThreadScheduler: ImmediateSchedulerType {
    /// The shared instance; its queue is per thread.
    public static let instance = CurrentThreadScheduler()

    private static let queueKey: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<TrampolineQueue>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<TrampolineQueue>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(result == 0, "pthread_key_create failed with \(result)")
        return key
    }()

    private init() {}

    /// Whether no trampoline is running on this thread, so scheduled work would run at once.
    public static var isScheduleRequired: Bool {
        guard let queue = currentQueue() else { return true }
        return !queue.isRunning
    }

    private static func currentQueue() -> TrampolineQueue? {
        guard let pointer = pthread_getspecific(queueKey) else { return nil }
        return Unmanaged<TrampolineQueue>.fromOpaque(pointer).takeUnretainedValue()
    }

    private static func queueForThisThread() -> TrampolineQueue {
        if let queue = currentQueue() { return queue }
        let queue = TrampolineQueue()
        pthread_setspecific(queueKey, Unmanaged.passRetained(queue).toOpaque())
        return queue
    }

    /// Runs `action` now if nothing runs on this thread's trampoline, else queues it.
    ///
    /// - Returns: A disposable that cancels the action if it is still queued.
    public func schedule<StateType: Sendable>(
        _ state: StateType,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let queue = CurrentThreadScheduler.queueForThisThread()
        if queue.isRunning {
            let item = ScheduledWork { action(state) }
            queue.items.enqueue(item)
            return item
        }
        queue.isRunning = true
        defer { queue.isRunning = false }
        let disposable = action(state)
        while let next = queue.items.dequeue() {
            next.run()
        }
        return disposable
    }
}

/// One thread's queue of pending trampoline work. Only its own thread touches it.
private final class TrampolineQueue {
    var isRunning = false
    var items = FIFOQueue<ScheduledWork>()
}

/// Runs an operator's work one piece at a time without holding a lock while it runs: the
/// serialization that multi-source and timer operators need downstream, with no recursive lock.
///
/// The protocol, in one place: a thread that finds the drain idle marks it busy, runs its work,
/// then runs whatever other threads queued meanwhile, in the order they queued it, until the
/// queue is empty; only then is the drain idle again. A thread that finds the drain busy
/// (another thread's work, or its own further up the stack when a downstream observer sends
/// back into the operator) queues its work and returns at once. So the work never overlaps,
/// never nests, and runs outside any lock: it may forward, dispose sources and call user code.
/// The work's own state needs no lock either: only the busy thread touches it, and the lock
/// that hands over "busy" orders each piece of work after the previous one.
///
/// Queued work runs on the thread that is draining, not on the thread that queued it; that
/// thread does not wait for it.
struct SerialDrain: Sendable {
    private struct State {
        var isBusy = false
        var queue = FIFOQueue<@Sendable () -> Void>()
    }

    private let state = LockedState(State())

    /// Runs `work` now if the drain is idle (then anything queued meanwhile), or queues it.
    func run(_ work: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.isBusy {
                state.queue.enqueue(work)
                return false
            }
            state.isBusy = true
            return true
        }
        guard runNow else { return }
        work()
        drain()
    }

    /// Marks the drain busy and returns `true` if it was idle: the caller runs its work now and
    /// then calls ``drain()``. A cheap path for work that would otherwise allocate a closure.
    @inline(__always)
    func tryEnter() -> Bool {
        state.withLock { state in
            if state.isBusy { return false }
            state.isBusy = true
            return true
        }
    }

    /// Runs the queued work, in order, then marks the drain idle. Only for the busy thread.
    func drain() {
        while let next = state.withLock({ state -> (@Sendable () -> Void)? in
            guard let next = state.queue.dequeue() else {
                state.isBusy = false
                return nil
            }
            return next
        }) {
            next()
        }
    }
}

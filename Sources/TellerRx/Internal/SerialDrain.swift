import Synchronization

/// Runs an operator's work one piece at a time without holding a lock while it runs: the
/// serialization that multi-source and timer operators need downstream, with no recursive lock.
///
/// The protocol, in one place: a thread that finds the drain idle makes it busy, runs its work,
/// then runs whatever other threads queued meanwhile, in the order they queued it, until none is
/// left; only then is the drain idle again. A thread that finds the drain busy (another thread's
/// work, or its own further up the stack when a downstream observer sends back into the
/// operator) queues its work and returns at once. So the work never overlaps, never nests, and
/// runs outside any lock: it may forward, dispose sources and call user code. The work's own
/// state needs no lock either: only the busy thread touches it, and the counter below orders
/// each piece of work after the previous one.
///
/// `inFlight` counts the pieces of work not yet finished: the running one and the queued ones.
/// Taking the drain is raising it from 0 to 1; a piece is queued before it is counted, so the
/// busy thread, which lowers the count after each piece, finds every counted piece in the queue.
/// The uncontended path is one compare-and-exchange in and one decrement out, no lock: a
/// `LockedState` in and out costs two mutex acquisitions, about a quarter of a combineLatest
/// element's instructions (measured with callgrind).
///
/// Queued work runs on the thread that is draining, not on the thread that queued it; that
/// thread does not wait for it.
///
/// Noncopyable and kept in a `let` of a class: the counter must stay at one address.
struct SerialDrain: ~Copyable, Sendable {
    private let inFlight = Atomic<Int>(0)
    private let queue = LockedState(FIFOQueue<@Sendable () -> Void>())

    init() {}

    /// Runs `work` now if the drain is idle (then anything queued meanwhile), or queues it.
    func run(_ work: @escaping @Sendable () -> Void) {
        if tryEnter() {
            work()
            leave()
            return
        }
        queue.withLock { $0.enqueue(work) }
        if inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            // Idle again meanwhile: this thread drains, starting with the queue's first piece.
            runQueued()
        }
    }

    /// Makes the drain busy and returns `true` if it was idle: the caller runs its work now and
    /// then calls ``leave()``. The path for work that would otherwise allocate a closure.
    @inline(__always)
    func tryEnter() -> Bool {
        inFlight.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Ends the work begun after ``tryEnter()`` returned `true`, then runs, in order, the work
    /// queued meanwhile. Only for the busy thread.
    @inline(__always)
    func leave() {
        if inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0 {
            runQueued()
        }
    }

    /// Runs queued pieces until none is counted; the caller is busy with a counted, queued piece.
    @inline(never)
    private func runQueued() {
        repeat {
            guard let next = queue.withLock({ $0.dequeue() }) else {
                preconditionFailure("SerialDrain: a counted piece of work is not in the queue")
            }
            next()
        } while inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }
}

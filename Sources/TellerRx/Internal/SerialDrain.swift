import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs an operator's work one piece at a time without holding a lock while it runs: the one
/// serialization that multi-source and timer operators use downstream. TellerRx has no
/// recursive lock; this is what designs re-entrancy out.
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
/// busy thread, which lowers the count after each piece, finds every counted piece in the
/// queue. The uncontended path (nothing re-entrant, no other thread inside) is one
/// compare-and-exchange in and one decrement out: the two atomic instructions a mutex's lock and
/// unlock cost, without the calls. While the process has only one thread (glibc's
/// `__libc_single_threaded`), no other thread can touch the counter, so it is read and
/// written without atomic instructions, as glibc's own mutexes then do. The queue, and its
/// lock, are created the first time something has to wait, so a drain that never sees
/// contention costs no allocation.
///
/// Queued work runs on the thread that is draining, not on the thread that queued it; that
/// thread does not wait for it.
///
/// A class, not a struct inside the sink: a sink's per-source observers keep it too, and reach
/// it with direct calls instead of through the sink's generic type or a protocol.
final class SerialDrain: @unchecked Sendable {
    // @unchecked: `singleThreaded` points at glibc's flag, which is read only.
    /// Work waiting for the drain, behind the one lock type.
    private final class Queue: Sendable {
        let work = LockedState(FIFOQueue<@Sendable () -> Void>())
    }

    private let inFlight = Atomic<Int>(0)
    private let lazyQueue = AtomicLazyReference<Queue>()
    #if canImport(Glibc)
    /// ``singleThreadedFlag``, read once here: a global's lazy initialization would cost a
    /// `swift_once` call on every use.
    private let singleThreaded = singleThreadedFlag
    #endif

    init() {}

    /// Whether this is the process's only thread: the counter then needs no atomic
    /// instructions (glibc's mutexes skip them too). Always `false` where it cannot be known.
    @inline(__always)
    private func processIsSingleThreaded() -> Bool {
        #if canImport(Glibc)
        if let singleThreaded { return singleThreaded.pointee != 0 }
        #endif
        return false
    }

    /// Runs `work` now if the drain is idle (then anything queued meanwhile), or queues it.
    ///
    /// - Returns: Whether this thread ran work (its own or queued work), for an owner that has
    ///   follow-up work to do outside the drain after anything ran.
    @discardableResult
    func run(_ work: @escaping @Sendable () -> Void) -> Bool {
        if tryEnter() {
            work()
            leave()
            return true
        }
        queue().work.withLock { $0.enqueue(work) }
        if add(1) == 1 {
            // Idle again meanwhile: this thread drains, starting with the queue's first piece.
            runQueued()
            return true
        }
        return false
    }

    /// Makes the drain busy and returns `true` if it was idle: the caller runs its work now and
    /// then calls ``leave()``. The path for work that would otherwise allocate a closure.
    @inline(__always)
    func tryEnter() -> Bool {
        if processIsSingleThreaded() {
            guard inFlight.load(ordering: .relaxed) == 0 else { return false }
            inFlight.store(1, ordering: .relaxed)
            return true
        }
        return inFlight.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Ends the work begun after ``tryEnter()`` returned `true`, then runs, in order, the work
    /// queued meanwhile. Only for the busy thread.
    ///
    /// - Returns: Whether queued work ran.
    @inline(__always)
    @discardableResult
    func leave() -> Bool {
        if add(-1) == 0 { return false }
        runQueued()
        return true
    }

    /// Runs queued pieces until none is counted; the caller is busy with a counted, queued piece.
    @inline(never)
    private func runQueued() {
        let queue = queue()
        repeat {
            guard let next = queue.work.withLock({ $0.dequeue() }) else {
                preconditionFailure("SerialDrain: a counted piece of work is not in the queue")
            }
            next()
        } while add(-1) != 0
    }

    /// Adds `delta` to the count and returns the new count.
    @inline(__always)
    private func add(_ delta: Int) -> Int {
        if processIsSingleThreaded() {
            let count = inFlight.load(ordering: .relaxed) + delta
            inFlight.store(count, ordering: .relaxed)
            return count
        }
        return inFlight.wrappingAdd(delta, ordering: .acquiringAndReleasing).newValue
    }

    @inline(never)
    private func queue() -> Queue {
        if let queue = lazyQueue.load() { return queue }
        return lazyQueue.storeIfNil(Queue())
    }
}

#if canImport(Glibc)
/// glibc's `__libc_single_threaded` (`<sys/single_threaded.h>`, glibc 2.32 and later; the
/// Glibc module does not export it): nonzero while the process has never created a thread.
/// Only the process's one thread can clear it (by creating a thread), so a thread that reads it
/// nonzero is alone, and stays alone until it creates a thread itself. `nil` where the symbol
/// is missing.
private nonisolated(unsafe) let singleThreadedFlag: UnsafePointer<CChar>? = dlsym(
    UnsafeMutableRawPointer(bitPattern: 0),  // RTLD_DEFAULT
    "__libc_single_threaded"
).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
#endif

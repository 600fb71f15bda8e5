#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Counts the live TellerRx objects (sinks, subscriptions, subjects' subscribers, observables),
/// like RxSwift's `Resources.total`, so tests can assert that a finished or disposed chain freed
/// everything it held.
///
/// Counting is compiled into debug builds of TellerRx only; in release builds both counts are
/// always 0 and counting costs nothing.
///
/// Tests that run in parallel (Swift Testing's default) all change ``total``. For a leak check
/// of synchronous code, compare ``totalOnCurrentThread`` before and after: it counts only the
/// objects created and freed on the calling thread, so other tests cannot disturb it.
///
/// ```swift
/// let before = Resources.totalOnCurrentThread
/// _ = Observable.of(1, 2).map { $0 * 2 }.subscribe()
/// #expect(Resources.totalOnCurrentThread == before)
/// ```
public enum Resources {
    private static let counter = AtomicState(0)

    /// The number of TellerRx resources alive now in the whole process (debug builds; 0 in
    /// release builds).
    public static var total: Int {
        counter.load()
    }

    /// Resources created on this thread minus resources freed on this thread (debug builds;
    /// 0 in release builds). Unchanged across synchronous code that frees what it creates,
    /// whatever other threads do meanwhile.
    public static var totalOnCurrentThread: Int {
        #if DEBUG
        threadCounter().pointee
        #else
        0
        #endif
    }

    /// Whether this build of TellerRx counts resources (true in debug builds).
    public static var isTracking: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    @inline(__always)
    static func increment() {
        #if DEBUG
        counter.increment()
        threadCounter().pointee += 1
        #endif
    }

    @inline(__always)
    static func decrement() {
        #if DEBUG
        counter.decrement()
        threadCounter().pointee -= 1
        #endif
    }

    #if DEBUG
    /// The calling thread's count, allocated on first use and freed with the thread.
    private static func threadCounter() -> UnsafeMutablePointer<Int> {
        if let existing = pthread_getspecific(threadKey) {
            return existing.assumingMemoryBound(to: Int.self)
        }
        let fresh = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        fresh.initialize(to: 0)
        pthread_setspecific(threadKey, fresh)
        return fresh
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            pointer.assumingMemoryBound(to: Int.self).deallocate()
            #else
            pointer?.assumingMemoryBound(to: Int.self).deallocate()
            #endif
        }
        precondition(result == 0, "pthread_key_create failed with \(result)")
        return key
    }()
    #endif
}

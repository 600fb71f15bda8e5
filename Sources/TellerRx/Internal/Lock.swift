#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A pthread mutex: cheap when uncontended and visible to ThreadSanitizer (unlike
/// `Synchronization.Mutex` on Linux, see PLATFORM-NOTES). Debug builds use an error-checking
/// mutex so a double unlock or an unlock from the wrong thread stops at once.
///
/// `package` because Teller serializes a data source's writes with it.
package final class Lock: @unchecked Sendable {
    // @unchecked: the mutex is the synchronisation; it is only touched through pthread calls.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// - Parameter recursive: whether the owning thread may lock again without unlocking first.
    ///   Used only by operators that forward from several sources (merge, zip, …), as RxSwift does.
    package init(recursive: Bool = false) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        Lock.initialize(mutex, recursive: recursive)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, recursive: Bool) {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        if recursive {
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        } else {
            #if DEBUG
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
            #endif
        }
        let result = pthread_mutex_init(mutex, &attributes)
        precondition(result == 0, "pthread_mutex_init failed with \(result)")
    }

    @inline(__always)
    func lock() {
        let result = pthread_mutex_lock(mutex)
        assert(result == 0, "pthread_mutex_lock failed with \(result)")
    }

    @inline(__always)
    func unlock() {
        let result = pthread_mutex_unlock(mutex)
        assert(result == 0, "pthread_mutex_unlock failed with \(result)")
    }

    @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// State and the mutex that guards it, in one allocation. The only way in is `withLock`, so
/// the state cannot be read or written unguarded. Decide under the lock, act after it: never
/// call an observer or user code inside `withLock`.
///
/// `package` because Teller guards its repository state with the same lock.
package struct LockedState<State>: @unchecked Sendable {
    // @unchecked: `State` is reachable only inside `withLock`.
    private final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointers { _, mutex in pthread_mutex_destroy(mutex) }
        }
    }

    // Inlinable, so Teller's code locks without a generic call per acquisition.
    @usableFromInline let buffer: ManagedBuffer<State, pthread_mutex_t>

    package init(_ initial: State) {
        buffer = Storage.create(minimumCapacity: 1) { _ in initial }
        buffer.withUnsafeMutablePointerToElements { Lock.initialize($0, recursive: false) }
    }

    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { state, mutex in
            let result = pthread_mutex_lock(mutex)
            assert(result == 0, "pthread_mutex_lock failed with \(result)")
            defer {
                let result = pthread_mutex_unlock(mutex)
                assert(result == 0, "pthread_mutex_unlock failed with \(result)")
            }
            return try body(&state.pointee)
        }
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The package's one lock: a pthread mutex in the same allocation as the state it guards. The
/// only way in is `withLock`, so the state cannot be read or written unguarded. Decide under
/// the lock, act after it: never call an observer or user code inside `withLock`.
///
/// A pthread mutex because it is cheap when uncontended (about 7 ns a lock/unlock pair here),
/// ThreadSanitizer sees it (`Synchronization.Mutex` on Linux it does not, and costs six times
/// as much; see PLATFORM-NOTES). It is never recursive: code that could reach the same lock
/// again from inside it (an observer sending back into its operator) decides under the lock
/// and acts after it instead (see `LockedSink`, ``SerialDrain``). Debug builds use an
/// error-checking mutex, so taking it again on the same thread, a double unlock or an unlock
/// from another thread stops at once.
///
/// A lock with no state is a ``Lock`` (`LockedState<Void>`).
///
/// Shared with Teller, TellerTesting, the tests and the benchmarks, so they all lock the same
/// way. The type is SPI (`@_spi(TellerInternals) import TellerRx`), its members `package`: an
/// app never sees it. Not a `package` type because the compiler does not serialize the bodies
/// of a `package` type's inlinable members, so every `withLock` from another module would be
/// an unspecialized generic call that looks up the state's metadata at run time.
@_spi(TellerInternals) public struct LockedState<State>: @unchecked Sendable {
    // @unchecked: `State` is reachable only inside `withLock`, under the mutex.

    // Inlinable, so that a module using the lock locks without a generic call per acquisition.
    @usableFromInline let buffer: LockedStateStorage<State>
    // The mutex inside `buffer` (which never moves): `lock()` reads only this pointer, so code
    // that takes a lock kept in another object doesn't retain `buffer` to reach it.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// - Parameter initial: The state, from now on only reachable through ``withLock(_:)``.
    ///   An autoclosure, so that the state is built in place rather than copied in.
    @inlinable
    package init(_ initial: @autoclosure () -> State) {
        self.init(storage: LockedStateStorage<State>.self, initial())
    }

    /// - Parameters:
    ///   - storage: The class to allocate. A type created on a hot path (a subject) passes a
    ///     final, non-generic subclass: a generic class's deinit always runs unspecialized
    ///     (value witness calls to destroy the state), a non-generic one's is specialized.
    ///   - initial: The state, built in place.
    @inlinable
    init(storage: LockedStateStorage<State>.Type, _ initial: @autoclosure () -> State) {
        buffer = unsafeDowncast(
            storage.create(minimumCapacity: 1) { _ in initial() },
            to: LockedStateStorage<State>.self
        )
        mutex = buffer.withUnsafeMutablePointerToElements { $0 }
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        #if DEBUG
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        #endif
        let result = pthread_mutex_init(mutex, &attributes)
        precondition(result == 0, "pthread_mutex_init failed with \(result)")
    }

    /// Runs `body` with the state, under the lock.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        // `buffer` (part of `self`) lives until this returns. The state's address is taken
        // under the lock too: ThreadSanitizer counts taking it as an access to the state.
        let result = pthread_mutex_lock(mutex)
        assert(result == 0, "pthread_mutex_lock failed with \(result)")
        defer {
            let result = pthread_mutex_unlock(mutex)
            assert(result == 0, "pthread_mutex_unlock failed with \(result)")
        }
        return try buffer.withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
    }

    /// A copy of the state as it is now. Only for reading a value (a count, a record) that
    /// nothing is decided on under the lock.
    @inlinable
    package var value: State {
        withLock { $0 }
    }
}

/// A lock with no state of its own, for code that guards something the lock cannot hold (a
/// class's stored properties, a sink's forwarding).
package typealias Lock = LockedState<Void>

extension LockedState where State == Void {
    /// A lock guarding nothing of its own.
    @inlinable
    package init() {
        self.init(storage: LockedStateStorage<Void>.self, ())
    }

    /// Runs `body` under the lock. (It never touches the empty state: at the mutex's own
    /// address, ThreadSanitizer would count that as an access racing with the locking.)
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Takes the lock; pair it with ``unlock()`` on the same thread. Prefer `withLock`. Only
    /// for a lock kept in a stored property of an object that outlives both calls: between
    /// them nothing else keeps the storage alive. (Both read only the mutex pointer, so taking
    /// a lock reached through another object costs no retain.)
    @inlinable
    func lock() {
        let result = pthread_mutex_lock(mutex)
        assert(result == 0, "pthread_mutex_lock failed with \(result)")
    }

    /// Releases the lock taken by ``lock()``.
    @inlinable
    func unlock() {
        let result = pthread_mutex_unlock(mutex)
        assert(result == 0, "pthread_mutex_unlock failed with \(result)")
    }
}

/// A ``LockedState``'s single allocation: the state as the header, the mutex as the one
/// element. Not final, so that a hot type can have a non-generic subclass (see
/// ``LockedState/init(storage:_:)``).
@usableFromInline
class LockedStateStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
}

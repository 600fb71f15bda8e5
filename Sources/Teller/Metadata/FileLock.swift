import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive advisory lock (`flock`) on a lock file, which every process using the same lock
/// file honours: the metadata store's, a cache folder's, the outbox journal's and its send lock.
/// Closing it, or the process ending in any way, releases it.
///
/// Its file can stay open between uses (``release()`` unlocks and keeps it): opening the lock
/// file (`O_CREAT`, which locks its folder) and closing it cost more than the rest of an outbox
/// append's own system calls together. A lock file removed since it was opened is opened again,
/// so every process locks the one file the path names. Releasing is an explicit `LOCK_UN`, which
/// also frees the lock should a child process being spawned hold a copy of the descriptor for
/// a moment.
///
/// Not thread-safe: its owner keeps it under its own lock. Copy it only to move it: two copies
/// share one descriptor.
struct FileLock {
    private var descriptor: Int32?

    /// Waits until this process holds the lock, opening (creating, mode 0600) the lock file at
    /// `path` when it is not open yet or was removed.
    mutating func acquire(path: String) throws {
        // A blocking `flock` never reports the lock as held by another.
        guard try lock(path: path, operation: LOCK_EX) else { throw POSIXFailure(call: "flock", code: EWOULDBLOCK) }
    }

    /// Takes the lock if nobody holds it, without waiting.
    ///
    /// - Returns: Whether this process holds the lock now; `false` when another process (or
    ///   another descriptor of this one) holds it.
    mutating func tryAcquire(path: String) throws -> Bool {
        // A lock found held may be held for a moment only: a child process being spawned keeps
        // a copy of every descriptor (the lock's too) until it runs its program, a fraction of
        // a millisecond. Look a few times over about a millisecond before saying it is held.
        for _ in 0..<5 {
            if try lock(path: path, operation: LOCK_EX | LOCK_NB) { return true }
            usleep(200)
        }
        return try lock(path: path, operation: LOCK_EX | LOCK_NB)
    }

    /// Releases the lock, keeping the lock file open for the next acquisition.
    mutating func release() {
        guard let descriptor else { return }
        // Should unlocking fail, closing the descriptor releases the lock.
        if flock(descriptor, LOCK_UN) != 0 { close() }
    }

    /// Closes the lock file, which releases the lock if held.
    mutating func close() {
        guard let descriptor else { return }
        self.descriptor = nil
        #if canImport(Darwin)
        _ = Darwin.close(descriptor)
        #elseif canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Musl.close(descriptor)
        #endif
    }

    /// Locks the lock file with `operation`; `false` when a non-blocking `operation` found it
    /// held.
    private mutating func lock(path: String, operation: Int32) throws -> Bool {
        // Twice at most: a lock file removed after it was opened is met once, then a new one.
        for _ in 0..<2 {
            let descriptor = try openedDescriptor(path: path)
            while flock(descriptor, operation) != 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EWOULDBLOCK { return false }
                close()
                throw POSIXFailure(call: "flock", code: code)
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let code = errno
                close()
                throw POSIXFailure(call: "fstat", code: code)
            }
            if info.st_nlink > 0 { return true }
            close()
        }
        throw POSIXFailure(call: "open", code: ENOENT)
    }

    private mutating func openedDescriptor(path: String) throws -> Int32 {
        if let descriptor { return descriptor }
        // Close-on-exec: a child process must not keep (and so hold) the lock once it runs.
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw POSIXFailure(call: "open", code: errno) }
        descriptor = opened
        return opened
    }
}

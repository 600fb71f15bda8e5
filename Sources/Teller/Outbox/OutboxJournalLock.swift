import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The exclusive advisory lock (`flock`) ``OutboxJournal`` takes on its lock file, which every
/// process sharing the journal honours, as ``FileLock`` does, except that the lock file stays
/// open between uses: opening it (`O_CREAT`, which locks its folder) and closing it cost more
/// than the rest of an append's own system calls together (about 10 of their 12 µs on Linux
/// ext4).
///
/// Releasing is an explicit `LOCK_UN`, which also frees the lock should a child process being
/// spawned hold a copy of the descriptor for a moment. A lock file removed since it was opened
/// is opened again, so that every process locks the one file the path names.
///
/// Not thread-safe: the journal uses it under its own lock.
struct OutboxJournalLock {
    private var descriptor: Int32?

    /// Waits until this process holds the lock, opening (creating, mode 0600) the lock file at
    /// `path` when it is not open yet or was removed.
    mutating func acquire(path: String) throws {
        // Twice at most: a lock file removed after it was opened is met once, then a new one.
        for _ in 0..<2 {
            let descriptor = try openedDescriptor(path: path)
            while flock(descriptor, LOCK_EX) != 0 {
                let code = errno
                guard code == EINTR else {
                    close()
                    throw POSIXFailure(call: "flock", code: code)
                }
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let code = errno
                close()
                throw POSIXFailure(call: "fstat", code: code)
            }
            if info.st_nlink > 0 { return }
            close()
        }
        throw POSIXFailure(call: "open", code: ENOENT)
    }

    /// Releases the lock, keeping the lock file open for the next ``acquire(path:)``.
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

    private mutating func openedDescriptor(path: String) throws -> Int32 {
        if let descriptor { return descriptor }
        // Close-on-exec: a child process must not keep (and so hold) the lock once it runs.
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw POSIXFailure(call: "open", code: errno) }
        descriptor = opened
        return opened
    }
}

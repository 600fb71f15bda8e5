import Foundation
@_spi(TellerInternals) import TellerRx

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The outbox's storage: a crash-safe, append-only file of ``OutboxJournalEntry``s (see
/// ``OutboxJournalFormat`` for the layout), replayed into the records still pending.
///
/// - ``append(_:)`` returns once the entry is flushed to disk (`fsync`), so an enqueue that
///   returned survives a crash. It writes that one entry at the end of the file: its cost does
///   not grow with the number of records pending.
/// - The file is kept in memory. Each call checks, with one `stat`, whether the file is still
///   the version this journal last read or wrote, and reads only the entries other journals
///   (other processes) appended since, or the whole file again when another process compacted
///   it (a new inode). The open descriptor is kept, so the old inode cannot be reused and
///   mistaken for the file this journal knows.
/// - Every append, compaction and read of new entries holds an exclusive advisory lock
///   (`flock`) on `<file>.lock`, as ``FileFetchMetadataStore`` does, so several processes (an
///   app and its extension) can share one journal: no entry is lost or interleaved, and a
///   partial entry seen under the lock is a crash's torn tail, never an append in progress.
///   The lock file stays open between calls (``FileLock``).
/// - A torn tail is ignored, reported and cut off by the next append; a damaged entry is
///   reported and skipped, and its neighbours still read (``OutboxJournalProblem``).
/// - A rejection (a `.rejected` entry with its date) is kept, with its record, until an
///   `.acknowledged` entry: rejections survive a relaunch until the app acknowledges them.
/// - A write the server took (a `.taken` entry) is kept, with its record, until a
///   `.fetchedBack` entry: a relaunch shows it until a fetch brings it back.
/// - A conflict (a `.conflicted` entry) is kept, its record pending, until an `.overwriting`
///   entry (the app's version stands, and the record is marked to be sent as an overwrite) or
///   the record leaves: conflicts and the app's decisions survive a relaunch.
/// - When dead entries (those of records neither pending nor rejected unacknowledged, settled
///   conflicts, and superseded ones) take more than half of the file and at least `compactionThreshold`
///   bytes, an append rewrites the file with only the live ones, atomically (temporary file,
///   flush, rename), which keeps the amortized cost of an append constant.
/// - A compaction first removes the temporary files of compactions a crash interrupted.
/// - The file and its lock file are readable and writable by their owner only (mode 0600).
///
/// All methods may be called on any thread; they block while another thread or process
/// appends or compacts.
package final class OutboxJournal: Sendable {
    /// The journal file.
    package let url: URL
    private let lockURL: URL
    // The paths of `url` and `lockURL`, worked out once: `URL.path` costs as much as the rest
    // of an append's own work.
    private let path: String
    private let lockPath: String
    private let compactionThreshold: Int
    private let onProblem: @Sendable (OutboxJournalProblem) -> Void
    // One lock for the state and the file work on it: the file lock serializes processes, this
    // one the threads of this process. Records hold only Foundation values, so releasing one
    // under it runs no app code.
    private let state = LockedState(State())

    /// Creates a journal on the file at `url`; nothing is created or read until first used.
    /// The file, missing folders and the lock file `url` + `.lock` are created by the first
    /// append.
    ///
    /// - Parameters:
    ///   - url: The journal file.
    ///   - compactionThreshold: How many bytes of dead entries the file may hold before an
    ///     append compacts it (when they are also more than half of it).
    ///   - onProblem: Told about torn tails and damaged entries read past, and compactions that
    ///     failed; called on the thread of the call that met them, after the journal's locks
    ///     are released.
    package init(
        url: URL,
        compactionThreshold: Int = 64 * 1024,
        onProblem: @escaping @Sendable (OutboxJournalProblem) -> Void = { _ in }
    ) {
        self.url = url
        lockURL = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".lock")
        path = url.path
        lockPath = lockURL.path
        self.compactionThreshold = compactionThreshold
        self.onProblem = onProblem
    }

    deinit {
        state.withLock { state in
            state.forget()
            state.lock.close()
        }
    }

    /// This program's default journal: `<program>/Teller/outbox.journal` in the folder where
    /// ``FileFetchMetadataStore/defaultURL`` keeps the metadata file.
    package static var defaultURL: URL {
        defaultURL(programIdentifier: UserFolders.programIdentifier)
    }

    /// The default journal of the program named `programIdentifier`, next to its
    /// ``FileFetchMetadataStore/defaultURL(programIdentifier:)``.
    package static func defaultURL(programIdentifier: String) -> URL {
        UserFolders.dataFolder(programIdentifier: programIdentifier).appendingPathComponent("outbox.journal")
    }

    /// The records pending, oldest enqueued first: every enqueued record not since sent,
    /// rejected or discarded, with its latest attempt count. An empty list when there is no
    /// file yet.
    ///
    /// - Throws: ``OutboxJournalError/unreadable(url:error:)`` or
    ///   ``OutboxJournalError/unlocked(url:error:)``; damage in the file is reported, not thrown.
    package func records() throws -> [OutboxRecord] {
        try read { $0.ordered }
    }

    /// The records pending, as ``records()`` gives them, the rejections not yet acknowledged,
    /// in the order they were rejected, the conflicts not yet resolved, in the order they were
    /// detected, and the pending records to send as overwrites.
    ///
    /// - Throws: As ``records()``.
    package func contents() throws -> OutboxJournalContents {
        try read {
            OutboxJournalContents(
                pending: $0.ordered,
                rejections: $0.rejections,
                conflicts: $0.conflicts,
                overwrites: $0.overwrites,
                taken: $0.taken
            )
        }
    }

    private func read<Result>(_ body: (OutboxPendingRecords) -> Result) throws -> Result {
        // Reported when this returns or throws, outside the locks.
        var problems: [OutboxJournalProblem] = []
        defer { problems.forEach(onProblem) }
        return try state.withLock { state in
            if !state.isCurrent(FileStamp(path: path)) {
                try underFileLock(&state) { problems += try synchronize(&$0, creating: false) }
            }
            return body(state.pending)
        }
    }

    /// Appends `entry` after whatever any process appended, and returns once it is on disk.
    ///
    /// - Parameter flush: `false` returns once the entry is written, without waiting for the
    ///   `fsync`: it survives the process being killed, and the next flushed append (which
    ///   flushes the whole file) makes it durable, but a power loss before then may lose it. For
    ///   entries whose loss only repeats work, such as a `.sent` mark (the write is sent again,
    ///   with its idempotency key).
    /// - Throws: ``OutboxJournalError``: the entry was not recorded. Damage met while reading
    ///   other processes' entries, and a failed compaction after the append, are reported, not
    ///   thrown.
    package func append(_ entry: OutboxJournalEntry, flush: Bool = true) throws {
        let frame = try OutboxJournalFormat.encode(entry)
        var problems: [OutboxJournalProblem] = []
        defer { problems.forEach(onProblem) }
        try state.withLock { state in
            if state.file == nil {
                do {
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(),
                        withIntermediateDirectories: true
                    )
                } catch {
                    throw OutboxJournalError.unwritable(url: url, error: error)
                }
            }
            try underFileLock(&state) { state in
                problems += try synchronize(&state, creating: true)
                try write(frame, of: entry, into: &state, flush: flush)
                let dead = state.end - Int64(state.pending.liveBytes)
                if dead > Int64(state.pending.liveBytes), dead >= Int64(compactionThreshold) {
                    do {
                        try compact(&state)
                    } catch {
                        problems.append(.compactionFailed(url: url, reason: "\(error)"))
                    }
                }
            }
        }
    }

    /// Rewrites the file with only the unacknowledged rejections, the pending records, their
    /// unresolved conflicts and their overwrite marks, whatever the dead entries' share.
    ///
    /// - Throws: ``OutboxJournalError``; the file is then left as it was.
    package func compact() throws {
        var problems: [OutboxJournalProblem] = []
        defer { problems.forEach(onProblem) }
        try state.withLock { state in
            try underFileLock(&state) { state in
                problems += try synchronize(&state, creating: false)
                guard state.file != nil else { return }
                do {
                    try compact(&state)
                } catch {
                    throw OutboxJournalError.unwritable(url: url, error: error)
                }
            }
        }
    }

    // MARK: - Under the locks

    private func underFileLock<Result>(
        _ state: inout State,
        _ body: (inout State) throws -> Result
    ) throws -> Result {
        do {
            try state.lock.acquire(path: lockPath)
        } catch {
            throw OutboxJournalError.unlocked(url: lockURL, error: error)
        }
        defer { state.lock.release() }
        return try body(&state)
    }

    /// Brings `state` up to the file as it is now: reads what was appended since, or all of
    /// it when the file was replaced. Opens (with `creating`, creates) the file first.
    private func synchronize(_ state: inout State, creating: Bool) throws -> [OutboxJournalProblem] {
        let onDisk = FileStamp(path: path)
        if let file = state.file, onDisk.map({ !file.isSameFile(as: $0) }) ?? true {
            // Replaced by another process's compaction, or removed.
            state.forget()
        }
        if state.file == nil {
            guard onDisk != nil || creating else { return [] }
            // A read never creates the file, even when it vanished since the `stat`.
            let descriptor = open(path, O_RDWR | O_APPEND | O_CLOEXEC | (creating ? O_CREAT : 0), 0o600)
            guard descriptor >= 0 else {
                let failure = POSIXFailure(call: "open", code: errno)
                throw creating
                    ? OutboxJournalError.unwritable(url: url, error: failure)
                    : OutboxJournalError.unreadable(url: url, error: failure)
            }
            if onDisk == nil { DescriptorIO.syncDirectory(of: url) }
            guard let stamp = FileStamp(descriptor: descriptor) else {
                let failure = POSIXFailure(call: "fstat", code: errno)
                close(descriptor)
                throw OutboxJournalError.unreadable(url: url, error: failure)
            }
            state.file = OpenFile(descriptor: descriptor, device: stamp.device, inode: stamp.inode)
        }
        guard let file = state.file else { return [] }
        guard let size = FileStamp(descriptor: file.descriptor)?.size else {
            throw OutboxJournalError.unreadable(url: url, error: POSIXFailure(call: "fstat", code: errno))
        }
        // A torn tail is read again: another process may have cut it off and appended an
        // entry of just its size.
        if size == state.size, size == state.end { return [] }
        if size < state.end {
            // Cut below what was read: not something journals do; read it all again.
            state.pending = OutboxPendingRecords()
            state.end = 0
        }
        let data: Data
        do {
            data = try DescriptorIO.read(file.descriptor, at: state.end, count: Int(size - state.end))
        } catch {
            throw OutboxJournalError.unreadable(url: url, error: error)
        }
        let scan = OutboxJournalFormat.scan(data, fileOffset: state.end, url: url)
        for (entry, size) in scan.entries {
            state.pending.apply(entry, size: size)
        }
        state.size = state.end + Int64(data.count)
        state.end += Int64(scan.consumed)
        // Report a torn tail once, however often it is read.
        let problems = scan.problems.filter { $0 != state.reportedTornTail }
        state.reportedTornTail = scan.problems.last { if case .tornTail = $0 { true } else { false } }
        return problems
    }

    /// Appends `frame` (the encoded `entry`) to the synchronized file, cutting off a torn tail
    /// first, and flushes it if `flush`.
    private func write(_ frame: Data, of entry: OutboxJournalEntry, into state: inout State, flush: Bool) throws {
        guard let descriptor = state.file?.descriptor else { return }
        do {
            if state.size != state.end {
                guard ftruncate(descriptor, off_t(state.end)) == 0 else {
                    throw POSIXFailure(call: "ftruncate", code: errno)
                }
                state.size = state.end
            }
            try DescriptorIO.writeAll(frame, to: descriptor)
            guard !flush || fsync(descriptor) == 0 else { throw POSIXFailure(call: "fsync", code: errno) }
        } catch {
            // Not recorded: take back what may have been written. Should that fail too, the
            // next read meets it as a torn tail.
            _ = ftruncate(descriptor, off_t(state.end))
            state.size = nil
            throw OutboxJournalError.unwritable(url: url, error: error)
        }
        state.pending.apply(entry, size: frame.count)
        state.end += Int64(frame.count)
        state.size = state.end
    }

    /// Replaces the file with one holding only the writes the server took that no fetch brought
    /// back, the unacknowledged rejections, the pending records, their unresolved conflicts and
    /// their overwrite marks, each in order.
    private func compact(_ state: inout State) throws {
        var data = Data(capacity: state.pending.liveBytes)
        var rebuilt = OutboxPendingRecords()
        var entries: [OutboxJournalEntry] = []
        for record in state.pending.taken {
            entries += [.enqueued(record: record), .taken(id: record.id)]
        }
        for rejection in state.pending.rejections {
            let id = rejection.record.id
            entries.append(.enqueued(record: rejection.record))
            entries.append(.rejected(id: id, reason: rejection.reason, rejectedAt: rejection.refusedAt))
        }
        let pending = state.pending.ordered
        entries += pending.map { .enqueued(record: $0) }
        for conflict in state.pending.conflicts {
            entries.append(
                .conflicted(id: conflict.record.id, reason: conflict.reason, detectedAt: conflict.refusedAt)
            )
        }
        let overwrites = state.pending.overwrites
        entries += pending.filter { overwrites.contains($0.id) }.map { .overwriting(id: $0.id) }
        for entry in entries {
            let frame = try OutboxJournalFormat.encode(entry)
            data.append(frame)
            rebuilt.apply(entry, size: frame.count)
        }
        // Under the file lock no compaction of this journal runs: every temporary file of it
        // left now is one a crash interrupted.
        AtomicFileWriter.removeStaleTemporaryFiles(for: url)
        try AtomicFileWriter.write(data, to: url, via: AtomicFileWriter.temporaryURL(for: url))
        // Under the file lock nobody else touches the new file: reopen it, knowing its content.
        state.forget()
        let descriptor = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        guard let stamp = FileStamp(descriptor: descriptor), stamp.size == Int64(data.count) else {
            close(descriptor)
            return
        }
        state.file = OpenFile(descriptor: descriptor, device: stamp.device, inode: stamp.inode)
        state.pending = rebuilt
        state.end = Int64(data.count)
        state.size = state.end
    }

    // MARK: - State

    private struct State {
        /// The file as this journal last opened it.
        var file: OpenFile?
        /// The records its entries up to `end` leave pending.
        var pending = OutboxPendingRecords()
        /// Where the last whole entry read or written ends.
        var end: Int64 = 0
        /// The file's size when last read or written (past `end`: a torn tail); `nil` when not
        /// known, so the next call reads again.
        var size: Int64? = 0
        /// The torn tail last reported, so that reading it again reports nothing.
        var reportedTornTail: OutboxJournalProblem?
        /// The lock on `<file>.lock`, kept open across ``forget()``.
        var lock = FileLock()

        /// Whether the file is still the version this state holds, judged by its stamp alone:
        /// appends only grow a file, and anything else replaces it. Never when it ends with a
        /// torn tail, which another process may replace by an entry of the same size.
        func isCurrent(_ onDisk: FileStamp?) -> Bool {
            switch (file, onDisk) {
            case (nil, nil): true
            case (let file?, let onDisk?): file.isSameFile(as: onDisk) && onDisk.size == size && size == end
            default: false
            }
        }

        /// Closes the file and drops what was read from it; the lock stays as it is.
        mutating func forget() {
            if let file { close(file.descriptor) }
            self = State(lock: lock)
        }
    }

    /// An open journal file and its identity.
    private struct OpenFile {
        let descriptor: Int32
        let device: UInt64
        let inode: UInt64

        func isSameFile(as stamp: FileStamp) -> Bool {
            stamp.device == device && stamp.inode == inode
        }
    }
}

import Foundation
@_spi(TellerInternals) import TellerRx

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps metadata in a JSON file, so it survives restarts. Teller's default store.
///
/// - Several processes may share the file, an app and its widget or extension in an app
///   group's folder for instance, as may several stores in one process. A write never loses
///   another process's tags, and a read sees what other processes wrote.
/// - Every change is a read-merge-write under an exclusive advisory lock (`flock`) on a lock
///   file next to the data file (`<file>.lock`, never deleted): the file is read again if
///   another process changed it, this one change is applied, and the result is written. The
///   lock is held only while one write runs (a flushed write of a small file, typically
///   milliseconds), so a write may wait for another process's write, never longer.
/// - Every change rewrites the file atomically: a temporary file in the same directory is
///   written, flushed to disk, then renamed over the old one, so a crash at any moment leaves
///   either the old or the new file, never a torn one.
/// - The file is kept in memory. Each read first checks, with one `stat` call, whether the file
///   is still the version last read or written (same inode, size and modification time) and
///   reads it again only when it is not.
/// - The file is readable and writable by its owner only (mode 0600).
/// - A corrupt or unreadable file is reported through `onProblem` and treated as empty ("never
///   fetched"); the next successful write replaces it.
/// - A change that could not be written is reported, thrown, and kept in memory for this
///   process, on top of whatever other processes write, until a later write succeeds.
public final class FileFetchMetadataStore: FetchMetadataStore {
    /// A problem the store recovered from, reported to ``FileFetchMetadataStore/init(url:onProblem:)``'s callback.
    public enum Problem: Sendable, CustomStringConvertible {
        /// The file exists but could not be read or decoded; it was treated as empty.
        case unreadable(url: URL, error: any Error)
        /// A change could not be written to disk; it is kept in memory for this process.
        case unwritable(url: URL, error: any Error)
        /// The lock file at `url` could not be opened or locked. The change was written without
        /// the lock, so a change another process makes at the same moment may be lost.
        case unlocked(url: URL, error: any Error)

        /// What happened, with the file path.
        public var description: String {
            switch self {
            case .unreadable(let url, let error):
                "Teller's fetch metadata at \(url.path) could not be read (\(error)); treating every tag as never fetched."
            case .unwritable(let url, let error):
                "Teller's fetch metadata could not be written to \(url.path) (\(error)); keeping it in memory only."
            case .unlocked(let url, let error):
                "Teller's fetch metadata lock \(url.path) could not be taken (\(error)); writing without it, so another process's simultaneous change may be lost."
            }
        }
    }

    /// The file's location.
    public let url: URL
    private let lockURL: URL
    private let onProblem: @Sendable (Problem) -> Void
    private let state = LockedState(State())
    /// Serializes this store's writers, so that renames land in the order the changes were
    /// made; the file lock does the same across stores and processes.
    private let writeLock = Lock()

    /// Creates a store backed by the file at `url` (created when first written, along with
    /// missing directories, and with the lock file `url` + `.lock` next to it).
    ///
    /// - Parameters:
    ///   - url: The JSON file to use.
    ///   - onProblem: Told about unreadable or unwritable files, and about writes made without
    ///     the lock. Teller passes its logger. Called on the thread that read or wrote.
    public init(url: URL, onProblem: @escaping @Sendable (Problem) -> Void = { _ in }) {
        self.url = url
        lockURL = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".lock")
        self.onProblem = onProblem
    }

    /// This program's default location: `<program>/Teller/fetch-metadata.json` under the
    /// application-support directory on Apple platforms, or under `$XDG_DATA_HOME` (default
    /// `~/.local/share`) elsewhere, where `<program>` is ``defaultProgramIdentifier``.
    ///
    /// Each program has its own file, so two programs of one user never see each other's fetch
    /// times, and one's ``Teller/clear()`` leaves the other's alone. Programs that share data
    /// (an app and its extensions) pass one location to ``init(url:onProblem:)``: a file in their
    /// app group's folder, or ``defaultURL(programIdentifier:)`` with one identifier for all.
    public static var defaultURL: URL {
        defaultURL(programIdentifier: defaultProgramIdentifier)
    }

    /// The default location of the program named `programIdentifier`:
    /// `<programIdentifier>/Teller/fetch-metadata.json` under the application-support directory
    /// on Apple platforms, or under `$XDG_DATA_HOME` (default `~/.local/share`) elsewhere.
    ///
    /// Pass one identifier from several programs (a tool and its helper, an app and its
    /// non-sandboxed extensions) to share one file; an app group's folder needs
    /// ``init(url:onProblem:)`` instead.
    ///
    /// - Parameter programIdentifier: A bundle identifier or a program's name. Used as one folder
    ///   name: "/" and other characters a file system may refuse become "_", and a name of dots
    ///   alone gets a "_" in front, so the file always stays inside the base directory.
    /// - Returns: The file's URL; nothing is created until the store first writes.
    public static func defaultURL(programIdentifier: String) -> URL {
        UserFolders.dataFolder(programIdentifier: programIdentifier).appendingPathComponent("fetch-metadata.json")
    }

    /// The name this program's default files are kept under (``defaultURL`` and
    /// ``FileCacheStore/defaultDirectory(named:programIdentifier:)``): the main bundle's
    /// identifier on Apple platforms when it has one, otherwise the name the executable was
    /// started under (`CommandLine.arguments[0]`'s last path component).
    public static var defaultProgramIdentifier: String {
        UserFolders.programIdentifier
    }

    /// The metadata for `tag`: what this store last read or wrote, or the file read again when
    /// another store or process has replaced it since.
    public func metadata(forTag tag: String) -> FetchMetadata? {
        current()[tag]
    }

    /// Stores or removes the metadata for `tag`, keeping every other tag in the file as it is
    /// now, and rewrites the file atomically. Waits while another process writes.
    ///
    /// - Throws: The write error; the change is kept in memory anyway.
    public func setMetadata(_ metadata: FetchMetadata?, forTag tag: String) throws {
        try update(.set(metadata, tag: tag))
    }

    /// Forgets every tag, other processes' included, and rewrites the file.
    ///
    /// - Throws: The write error; memory is cleared anyway.
    public func removeAll() throws {
        try update(.removeAll)
    }

    /// Forgets every tag `prefix` contains, other processes' included, and rewrites the file.
    ///
    /// - Parameter prefix: The branch of tags to forget.
    /// - Throws: The write error; the tags are forgotten in memory anyway.
    public func removeMetadata(tagsUnder prefix: TagPrefix) throws {
        try update(.removeTagsUnder(prefix))
    }

    // MARK: - Reading

    private func current() -> [String: FetchMetadata] {
        let stamp = FileStamp(path: url.path)
        let cached = state.withLock { state -> (entries: [String: FetchMetadata]?, generation: Int) in
            guard let disk = state.disk, disk.stamp == stamp else { return (nil, state.generation) }
            return (state.unwritten.applied(to: disk.entries), state.generation)
        }
        if let entries = cached.entries { return entries }
        let (read, problem) = readFile()
        if let problem { onProblem(problem) }
        return state.withLock { state in
            // A write of this store that finished meanwhile is newer than what was just read.
            if state.generation == cached.generation { state.disk = read }
            return state.unwritten.applied(to: read.entries)
        }
    }

    private func readFile() -> (DiskVersion, Problem?) {
        let read: (data: Data, stamp: FileStamp?)?
        do {
            read = try StampedFileReader.read(path: url.path)
        } catch {
            // Remember the unreadable version, so it is reported once, not on every read.
            return (DiskVersion(entries: [:], stamp: FileStamp(path: url.path)), .unreadable(url: url, error: error))
        }
        guard let read else { return (DiskVersion(entries: [:], stamp: nil), nil) }
        do {
            let entries = try FileFetchMetadataStore.decoder.decode(StoredFile.self, from: read.data).tags
            return (DiskVersion(entries: entries, stamp: read.stamp), nil)
        } catch {
            return (DiskVersion(entries: [:], stamp: read.stamp), .unreadable(url: url, error: error))
        }
    }

    // MARK: - Writing

    private func update(_ change: Change) throws {
        let (problems, failure) = writeLock.withLock { write(change) }
        problems.forEach(onProblem)
        if let failure { throw failure }
    }

    /// Under `writeLock`: takes the file lock, applies `change` to the file as it is now and
    /// writes the result. Returns what to report and what to throw, outside the lock.
    private func write(_ change: Change) -> (problems: [Problem], failure: (any Error)?) {
        var problems: [Problem] = []
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            state.withLock {
                $0.unwritten.add(change)
                $0.generation += 1
            }
            return ([.unwritable(url: url, error: error)], error)
        }
        var lock = FileLock()
        defer { lock.close() }
        var isLocked = false
        do {
            try lock.acquire(path: lockURL.path)
            isLocked = true
        } catch {
            problems.append(.unlocked(url: lockURL, error: error))
        }
        let sweeps =
            isLocked
            && state.withLock { state in
                defer { state.hasSweptTemporaryFiles = true }
                return !state.hasSweptTemporaryFiles
            }
        if sweeps {
            // Writes killed between writing and renaming leave their temporary file; only a
            // crash makes one, so the first write of each store under the lock is enough.
            AtomicFileWriter.removeStaleTemporaryFiles(for: url)
        }

        // The file as it is now: what this store last saw unless someone replaced it since.
        let stamp = FileStamp(path: url.path)
        let (known, unwritten) = state.withLock { ($0.disk, $0.unwritten) }
        let disk: DiskVersion
        if let known, known.stamp == stamp {
            disk = known
        } else {
            let (read, problem) = readFile()
            if let problem { problems.append(problem) }
            disk = read
        }
        var pending = unwritten
        pending.add(change)
        let merged = pending.applied(to: disk.entries)
        do {
            let written = try writeFile(merged)
            state.withLock {
                $0.disk = DiskVersion(entries: merged, stamp: written)
                $0.unwritten = UnwrittenChanges()
                $0.generation += 1
            }
            return (problems, nil)
        } catch {
            state.withLock {
                $0.disk = disk
                $0.unwritten = pending
                $0.generation += 1
            }
            problems.append(.unwritable(url: url, error: error))
            return (problems, error)
        }
    }

    private func writeFile(_ entries: [String: FetchMetadata]) throws -> FileStamp? {
        let data = try FileFetchMetadataStore.encoder.encode(StoredFile(tags: entries))
        return try AtomicFileWriter.write(data, to: url, via: AtomicFileWriter.temporaryURL(for: url))
    }

    // MARK: - State

    private struct State {
        /// The file as this store last read or wrote it; `nil` before first use.
        var disk: DiskVersion?
        /// This process's changes that could not be written, laid over what the file holds.
        var unwritten = UnwrittenChanges()
        /// Bumped by every write, so that a read that overlapped it doesn't install an older
        /// version over the one the write installed.
        var generation = 0
        /// Whether this store removed the temporary files crashed writes left.
        var hasSweptTemporaryFiles = false
    }

    /// One version of the file: its tags and its stamp (`nil` when there was no file).
    private struct DiskVersion {
        var entries: [String: FetchMetadata]
        var stamp: FileStamp?
    }

    private enum Change {
        case set(FetchMetadata?, tag: String)
        case removeTagsUnder(TagPrefix)
        case removeAll
    }

    /// Changes not yet on disk, kept small: a later change of a tag replaces an earlier one.
    /// Applied in this order: everything cleared, branches removed, tags set.
    private struct UnwrittenChanges {
        var clearsAll = false
        var removedBranches: [TagPrefix] = []
        var tags: [String: FetchMetadata?] = [:]

        mutating func add(_ change: Change) {
            switch change {
            case .set(let metadata, let tag):
                tags.updateValue(metadata, forKey: tag)
            case .removeTagsUnder(let prefix):
                // Tags set earlier in the branch are removed with it.
                tags = tags.filter { !prefix.contains($0.key) }
                removedBranches.removeAll { prefix.contains($0) }
                removedBranches.append(prefix)
            case .removeAll:
                clearsAll = true
                removedBranches.removeAll()
                tags.removeAll()
            }
        }

        func applied(to entries: [String: FetchMetadata]) -> [String: FetchMetadata] {
            guard clearsAll || !removedBranches.isEmpty || !tags.isEmpty else { return entries }
            var result = clearsAll ? [:] : entries
            if !removedBranches.isEmpty {
                result = result.filter { tag, _ in !removedBranches.contains { $0.contains(tag) } }
            }
            for (tag, metadata) in tags {
                result[tag] = metadata
            }
            return result
        }
    }

    /// The file's format: versioned, so a future layout can be told apart.
    private struct StoredFile: Codable {
        var version = 1
        var tags: [String: FetchMetadata]
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        // Seconds since 1970 as a Double: sub-millisecond exact and locale-free.
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}

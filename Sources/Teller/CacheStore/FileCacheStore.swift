import Foundation
import TellerRx

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps `Codable` values in a folder, one JSON file per tag: a ready cache for a
/// ``RepositoryDataSource`` (see ``CodableRepositoryDataSource``).
///
/// ```swift
/// let store = try FileCacheStore<[Repo]>(
///     directory: FileCacheStore<[Repo]>.defaultDirectory(named: "repos"),
///     maxTotalBytes: 10_000_000,
///     maxUnusedAge: Period(unit: 30, component: .day)
/// )
/// try store.save(repos, tag: "Repos for octocat")
/// store.load(tag: "Repos for octocat")        // the repos
/// ```
///
/// - **Files.** Any string may be a tag. A file's name is made from the tag's first letters and
///   digits and a hash of the whole tag (`Repos_for_octocat_6f1d0c93b2a4e871.json`), never from
///   the tag itself, so "/" or ".." in a tag cannot leave the folder. The file holds the tag and
///   the value as JSON. The store only reads, counts and removes files it names itself, but give
///   it a folder of its own all the same.
/// - **Atomic writes.** A save writes a temporary file in the folder, flushes it and renames it
///   over the old file: a crash or a full disk leaves the old file or the new one, never half of
///   each. Writers take an advisory lock (`flock` on `.lock` in the folder), so stores in several
///   processes (an app and its extension) can share a folder.
/// - **Observing.** ``observe(tag:)`` emits the current value when subscribed and again after
///   every save, update or removal of that tag in this process, by any store on the same folder.
/// - **Limits.** With `maxUnusedAge`, a tag not loaded or saved for that long is evicted; with
///   `maxTotalBytes`, the least recently used tags are evicted until the folder's cache files fit.
///   Tags in use are never evicted: those a live repository of the store's ``teller`` shows, and
///   those observed in this process. So the folder may stay over its size limit while they need
///   the room. Eviction runs when the store is created, after every
///   save or update, and on ``evictUnusedTags()``. An evicted tag's fetch time is forgotten
///   (``Teller/clear(tag:)``), so a repository fetches it again instead of showing an empty cache
///   as fresh.
/// - **Bad files.** A file that cannot be read or decoded (after a change to `Value`, say) is
///   reported to the ``Teller/logger`` as ``TellerLogEvent/cacheStoreProblem(_:)`` and treated as
///   no cache; the next save replaces it. A save that cannot write throws
///   ``FileCacheStoreError``, and Teller shows it as the refresh's error.
///
/// Threads: every method may be called from any thread. Loads and the emissions of
/// ``observe(tag:)`` read the file on the calling (or saving) thread; a save blocks while another
/// writer of the folder, in this process or another, writes.
public final class FileCacheStore<Value: Codable & Sendable>: Sendable {
    /// The cache folder.
    public let directory: URL
    /// The size limit of the folder's cache files, in bytes; `nil` for none.
    public let maxTotalBytes: Int?
    /// How long a tag may go without being loaded or saved before it is evicted; `nil` for ever.
    public let maxUnusedAge: Period?
    /// Whose clock dates each use, and whose fetch times evictions forget: give repositories
    /// whose data sources use this store the same `Teller`.
    public let teller: Teller

    private let hub: CacheFolderHub
    private let encoder: JSONEncoder
    private let decoder: JSONDecoder

    /// Creates a store on `directory`, creating the folder (and its parents) if needed, removes
    /// what writes interrupted by a crash left, and evicts what the limits say must go.
    ///
    /// - Parameters:
    ///   - directory: The cache folder, for this store alone (or for stores of one cache).
    ///     ``defaultDirectory(named:programIdentifier:)`` gives one in the platform's caches directory.
    ///   - maxTotalBytes: The most the folder's cache files may take, in bytes; `nil` for no limit.
    ///   - maxUnusedAge: Evict tags not loaded or saved for this long; `nil` keeps them for ever.
    ///   - teller: The `Teller` of the repositories that use this store: its clock dates each use,
    ///     its logger hears of problems, and evictions forget fetch times in it.
    ///   - encoder: Encodes values; configure it for your model (dates, for instance). Used from
    ///     several threads, so don't change it afterwards.
    ///   - decoder: Decodes values; it must read what `encoder` writes.
    /// - Throws: ``FileCacheStoreError/cannotCreateFolder(path:reason:)`` if the folder cannot be
    ///   created; ``FileCacheStoreError/invalidLimit(_:)`` for a size limit below 1 byte or an age
    ///   limit of no time.
    public init(
        directory: URL,
        maxTotalBytes: Int? = nil,
        maxUnusedAge: Period? = nil,
        teller: Teller = .shared,
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder()
    ) throws {
        if let maxTotalBytes, maxTotalBytes < 1 {
            throw FileCacheStoreError.invalidLimit("maxTotalBytes must be at least 1 byte, not \(maxTotalBytes)")
        }
        if let maxUnusedAge, maxUnusedAge.unit < 1 {
            throw FileCacheStoreError.invalidLimit("maxUnusedAge must be longer than no time, not \(maxUnusedAge)")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FileCacheStoreError.cannotCreateFolder(path: directory.path, reason: "\(error)")
        }
        self.directory = directory
        self.maxTotalBytes = maxTotalBytes
        self.maxUnusedAge = maxUnusedAge
        self.teller = teller
        self.encoder = encoder
        self.decoder = decoder
        hub = CacheFolderHub.hub(forPath: directory.resolvingSymlinksInPath().standardizedFileURL.path)
        if maxTotalBytes != nil || maxUnusedAge != nil {
            evictUnusedTags()
        } else {
            hub.exclusively { lockFailure in
                if lockFailure == nil { removeTemporaryFiles() }
            }
        }
    }

    /// A folder named `name` in this program's own part of the platform's caches directory:
    /// `Library/Caches/<program>/Teller/<name>` in the user's domain on Apple platforms,
    /// `$XDG_CACHE_HOME/<program>/Teller/<name>` (default `~/.cache/…`) elsewhere, where
    /// `<program>` is ``FileFetchMetadataStore/defaultProgramIdentifier`` unless you pass one.
    ///
    /// Each program has its own folder, so two programs of one user never read each other's
    /// cache files. Programs that share a cache (an app and its extensions) pass one
    /// `programIdentifier`, or a folder in their app group's container to ``init(directory:maxTotalBytes:maxUnusedAge:teller:encoder:decoder:)``.
    ///
    /// The system may empty a caches directory when space runs low; a repository whose cache
    /// file is gone fetches it again.
    ///
    /// - Parameters:
    ///   - name: The folder's name, such as "repos".
    ///   - programIdentifier: Whose caches these are: a bundle identifier or a program's name,
    ///     made safe as one folder name as ``FileFetchMetadataStore/defaultURL(programIdentifier:)``
    ///     says.
    /// - Returns: `<caches directory>/<program>/Teller/<name>`; nothing is created until a store
    ///   is made on it.
    public static func defaultDirectory(
        named name: String,
        programIdentifier: String = FileFetchMetadataStore.defaultProgramIdentifier
    ) -> URL {
        let base = UserFolders.base(apple: .cachesDirectory, xdgVariable: "XDG_CACHE_HOME", linuxDefault: ".cache")
        return UserFolders.programFolder(base: base, programIdentifier: programIdentifier)
            .appendingPathComponent(name, isDirectory: true)
    }

    // MARK: Reading

    /// The value saved for `tag`, or `nil` if there is none or its file cannot be read (which is
    /// reported to the logger). Counts as a use of the tag. Reads the file on the calling thread.
    ///
    /// - Parameter tag: The tag, usually a ``RepositoryRequirements/tag``.
    /// - Returns: The value, or `nil`.
    public func load(tag: String) -> Value? {
        let (value, problem) = read(tag: tag)
        if let problem { teller.log(.cacheStoreProblem(problem)) }
        return value
    }

    /// The value for `tag` now, then again after every save, update or removal of `tag` by any
    /// store on this folder in this process (`nil` when there is none). Never fails or completes.
    ///
    /// The first value is emitted on the subscribing thread before `subscribe` returns; later ones
    /// on the thread that changed the tag. Emissions never overlap, and the last one always shows
    /// the last change. Changes made by other processes are seen on the next emission only.
    /// While subscribed, the tag is in use and never evicted.
    ///
    /// - Parameter tag: The tag to observe.
    /// - Returns: An observable of the tag's value.
    public func observe(tag: String) -> Observable<Value?> {
        Observable.create { [self] observer in
            let observation = TagObservation(emitCurrentValue: { [self] in observer.onNext(load(tag: tag)) })
            let id = hub.add(observation, tag: tag)
            observation.start()
            return Disposables.create { [hub] in
                observation.dispose()
                hub.remove(id, tag: tag)
            }
        }
    }

    // MARK: Writing

    /// Saves `value` for `tag`, replacing its file atomically, then evicts what the limits say
    /// must go (never `tag` itself) and tells observers of `tag`.
    ///
    /// Called by ``CodableRepositoryDataSource`` on Teller's background scheduler; from any thread
    /// otherwise. Waits while another writer of the folder writes.
    ///
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - tag: Its tag.
    /// - Throws: ``FileCacheStoreError/cannotEncode(tag:reason:)`` or
    ///   ``FileCacheStoreError/cannotWrite(tag:path:reason:)``; the old file is then intact.
    public func save(_ value: Value, tag: String) throws {
        let contents = try encode(value, tag: tag)
        try writeLocked(tag: tag) { try write(contents, tag: tag) }
    }

    /// Changes the value of `tag` in one step that no other writer of the folder interleaves
    /// with: `change` gets the current value (`nil` if none) and may change it, or set it to
    /// `nil` to remove the tag. Then evicts and tells observers, as ``save(_:tag:)`` does.
    ///
    /// A paging data source appends a page this way:
    ///
    /// ```swift
    /// try store.update(tag: requirements.tag) { pages in pages = (pages ?? []) + [page] }
    /// ```
    ///
    /// - Parameters:
    ///   - tag: The tag to change.
    ///   - change: Runs on the calling thread while the folder is locked: keep it short, and don't
    ///     call the store from it.
    /// - Throws: What `change` throws (nothing is written then), or what ``save(_:tag:)`` and
    ///   ``remove(tag:)`` throw.
    public func update(tag: String, _ change: (inout Value?) throws -> Void) throws {
        var problem: String?
        defer {
            if let problem { teller.log(.cacheStoreProblem(problem)) }
        }
        try writeLocked(tag: tag) {
            var value: Value?
            (value, problem) = read(tag: tag)
            try change(&value)
            if let value {
                try write(try encode(value, tag: tag), tag: tag)
            } else {
                try removeFile(named: CacheFile.name(forTag: tag), tag: tag)
            }
        }
    }

    /// Removes the value of `tag` and tells its observers (who get `nil`). The tag's fetch time
    /// is left to Teller; a repository showing it through a ``CodableRepositoryDataSource``
    /// notices the missing file and fetches it again. Call ``Teller/clear(tag:)`` too to make
    /// every repository fetch it again.
    ///
    /// - Parameter tag: The tag to remove; nothing happens if it has no value.
    /// - Throws: ``FileCacheStoreError/cannotRemove(tag:path:reason:)``.
    public func remove(tag: String) throws {
        try hub.exclusively { _ in try removeFile(named: CacheFile.name(forTag: tag), tag: tag) }
        hub.changed([tag])
    }

    /// Removes every value in the folder and tells every observer. Fetch times are left to
    /// Teller: on sign-out, call ``Teller/clear()`` too.
    ///
    /// - Throws: ``FileCacheStoreError/cannotRemove(tag:path:reason:)`` for the first file that
    ///   could not be removed, after trying them all.
    public func removeAll() throws {
        defer { hub.changed(nil) }
        try hub.exclusively { lockFailure in
            let names: [String]
            do {
                names = try listFolder()
            } catch {
                throw FileCacheStoreError.cannotRemove(tag: nil, path: hub.path, reason: "\(error)")
            }
            var failure: (any Error)?
            for name in names where CacheFile.isCacheFileName(name) {
                do {
                    try removeFile(named: name, tag: nil)
                } catch {
                    failure = failure ?? error
                }
            }
            if lockFailure == nil { removeTemporaryFiles() }
            if let failure { throw failure }
        }
    }

    /// Evicts now what the limits say must go, as every save does, and forgets the evicted tags'
    /// fetch times: for a background task, say, when nothing was saved for a while.
    ///
    /// - Returns: The tags evicted.
    @discardableResult
    public func evictUnusedTags() -> [String] {
        let now = teller.now
        let outcome = hub.exclusively { lockFailure in evict(now: now, keeping: nil, lockFailure: lockFailure) }
        return finish(outcome, changed: nil)
    }

    // MARK: Internals

    /// What one locked step left to do once the lock is released: report, forget, tell.
    private struct Outcome {
        var evicted: [(tag: String, reason: CacheEviction.Reason)] = []
        var problems: [String] = []
    }

    /// Runs `body` under the folder's lock, then evicts, then (outside the lock) reports,
    /// forgets the evicted tags' fetch times and tells observers.
    private func writeLocked(tag: String, _ body: () throws -> Void) throws {
        let now = teller.now
        let outcome = try hub.exclusively { lockFailure -> Outcome in
            try body()
            return evict(now: now, keeping: tag, lockFailure: lockFailure)
        }
        finish(outcome, changed: tag)
    }

    @discardableResult
    private func finish(_ outcome: Outcome, changed tag: String?) -> [String] {
        for problem in outcome.problems { teller.log(.cacheStoreProblem(problem)) }
        let evicted = outcome.evicted.map(\.tag)
        for (tag, reason) in outcome.evicted {
            teller.log(.cacheEvicted(tag: tag, reason: reason.description))
            teller.clear(tag: tag)
        }
        hub.changed((tag.map { [$0] } ?? []) + evicted)
        return evicted
    }

    private func encode(_ value: Value, tag: String) throws -> Data {
        do {
            return try CacheFile.contents(tag: tag, encodedValue: encoder.encode(value))
        } catch {
            throw FileCacheStoreError.cannotEncode(tag: tag, reason: "\(error)")
        }
    }

    /// Under the lock: writes `contents` as the file of `tag`, used now.
    private func write(_ contents: Data, tag: String) throws {
        let name = CacheFile.name(forTag: tag)
        let url = URL(fileURLWithPath: hub.path).appendingPathComponent(name)
        let temporary = URL(fileURLWithPath: hub.path).appendingPathComponent(CacheFile.temporaryName(for: name))
        do {
            try AtomicFileWriter.write(contents, to: url, via: temporary, modificationDate: teller.now)
        } catch {
            throw FileCacheStoreError.cannotWrite(tag: tag, path: url.path, reason: "\(error)")
        }
    }

    /// Under the lock: removes the file `name`; a file already gone is fine.
    private func removeFile(named name: String, tag: String?) throws {
        let path = hub.path + "/" + name
        guard unlink(path) != 0 else { return }
        let code = errno
        guard code != ENOENT else { return }
        throw FileCacheStoreError.cannotRemove(
            tag: tag,
            path: path,
            reason: POSIXFailure(call: "unlink", code: code).description
        )
    }

    /// Where the value of `tag` is kept.
    func filePath(forTag tag: String) -> String {
        hub.path + "/" + CacheFile.name(forTag: tag)
    }

    /// The value of `tag` and what to report about its file. Dates the tag's use.
    private func read(tag: String) -> (Value?, problem: String?) {
        let path = filePath(forTag: tag)
        let data: Data
        do {
            guard let read = try StampedFileReader.read(path: path) else { return (nil, nil) }
            data = read.data
        } catch {
            return (nil, "The cache file \(path) of \"\(tag)\" could not be read (\(error)); treating it as no cache.")
        }
        let envelope: CacheFile.Envelope<Value>
        do {
            envelope = try decoder.decode(CacheFile.Envelope<Value>.self, from: data)
        } catch {
            return (
                nil,
                "The cache file \(path) of \"\(tag)\" could not be decoded as \(Value.self) (\(error)); "
                    + "treating it as no cache until the next save replaces it."
            )
        }
        guard envelope.tag == tag else {
            return (nil, "The cache file \(path) holds \"\(envelope.tag)\", not \"\(tag)\"; treating it as no cache.")
        }
        // The use counts for eviction; a file replaced or removed meanwhile needs no date.
        try? FileTimes.set(path: path, to: teller.now)
        return (envelope.value, nil)
    }

    /// Under the lock: removes what the limits say must go, never `keeping`'s file, an observed
    /// tag's or one a live repository shows.
    private func evict(now: Date, keeping: String?, lockFailure: (any Error)?) -> Outcome {
        var outcome = Outcome()
        if let lockFailure {
            outcome.problems.append("The cache folder's lock \(hub.path)/.lock could not be taken (\(lockFailure)).")
        }
        guard maxTotalBytes != nil || maxUnusedAge != nil else { return outcome }
        let names: [String]
        do {
            names = try listFolder()
        } catch {
            outcome.problems.append("The cache folder \(hub.path) could not be listed (\(error)); nothing was evicted.")
            return outcome
        }
        let entries = names.filter(CacheFile.isCacheFileName).compactMap { name -> CacheEviction.Entry? in
            guard let stamp = FileStamp(path: hub.path + "/" + name) else { return nil }
            return CacheEviction.Entry(name: name, bytes: stamp.size, lastUsed: FileTimes.modified(stamp))
        }
        let tags = hub.observedTags.union(teller.tagsInUse).union(keeping.map { [$0] } ?? [])
        let inUse = Set(tags.map(CacheFile.name(forTag:)))
        let victims = CacheEviction.victims(
            of: entries,
            maxTotalBytes: maxTotalBytes,
            maxUnusedAge: maxUnusedAge,
            now: now,
            inUse: inUse
        )
        for (entry, reason) in victims {
            let tag = CacheFile.tag(atPath: hub.path + "/" + entry.name)
            do {
                try removeFile(named: entry.name, tag: tag)
            } catch {
                outcome.problems.append("\(error)")
                continue
            }
            if let tag {
                outcome.evicted.append((tag, reason))
            } else {
                outcome.problems.append("Evicted the unreadable cache file \(hub.path)/\(entry.name) (\(reason)).")
            }
        }
        if lockFailure == nil { removeTemporaryFiles() }
        return outcome
    }

    private func listFolder() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: hub.path)
    }

    /// Under the lock file: removes temporary files that writes which never finished (a crash)
    /// left. Every writer holds the lock while its temporary file exists, so none is in use.
    private func removeTemporaryFiles() {
        for name in (try? listFolder()) ?? [] where CacheFile.isTemporaryFileName(name) {
            _ = unlink(hub.path + "/" + name)
        }
    }
}

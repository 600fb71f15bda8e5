/// What a ``FileCacheStore`` throws. Each description names the path, says what went wrong
/// and what to do about it.
public enum FileCacheStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The cache folder at `path` does not exist and could not be created.
    case cannotCreateFolder(path: String, reason: String)
    /// A limit given to the store makes no sense (a size of zero bytes, an age of no time).
    case invalidLimit(String)
    /// The value for `tag` could not be encoded.
    case cannotEncode(tag: String, reason: String)
    /// The file for `tag` at `path` could not be written; the previous file, if any, is intact.
    case cannotWrite(tag: String, path: String, reason: String)
    /// The file at `path` (of `tag`, when known) could not be removed.
    case cannotRemove(tag: String?, path: String, reason: String)
    /// A repository observed `tag`, which Teller has a fetch time for, but the store has no
    /// readable cache for it (the file was removed, evicted by another process, or is
    /// corrupt). The store forgets the fetch time, so the repository fetches it again.
    case noCache(tag: String, path: String)
    /// A repository uses the store in `path` through its data source (a
    /// ``CodableRepositoryDataSource``'s `cacheStore`, or a store in a stored property of a paging
    /// data source, where it keeps its pages), but the store was made with
    /// another ``Teller`` than the repository's. Evictions and missing files would then forget
    /// fetch times in the wrong `Teller`, and the repository would keep showing an unreadable
    /// cache, so the repository reads no cache from it at all.
    case differentTeller(path: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .cannotCreateFolder(let path, let reason):
            "The cache folder \(path) could not be created (\(reason)). "
                + "Pass a folder the app may write, such as one under its caches directory."
        case .invalidLimit(let problem):
            "Invalid FileCacheStore limit: \(problem)."
        case .cannotEncode(let tag, let reason):
            "The cache for \"\(tag)\" could not be encoded (\(reason)); the cached file was left as it was."
        case .cannotWrite(let tag, let path, let reason):
            "The cache for \"\(tag)\" could not be written to \(path) (\(reason)); the previous file was left "
                + "as it was. Check that the cache folder is writable and the disk is not full."
        case .cannotRemove(let tag, let path, let reason):
            "The cache file \(path)\(tag.map { " of \"\($0)\"" } ?? "") could not be removed (\(reason)). "
                + "Check that the cache folder is writable."
        case .noCache(let tag, let path):
            "There is no readable cache for \"\(tag)\" at \(path), although Teller fetched it: "
                + "its fetch time is forgotten, so it is fetched again."
        case .differentTeller(let path):
            "The FileCacheStore at \(path) was made with another Teller than the repository using it, so the "
                + "repository reads no cache from it. Pass the repository's Teller to FileCacheStore(directory:teller:) "
                + "(it is Teller.shared unless given), or the store's teller to the repository."
        }
    }
}

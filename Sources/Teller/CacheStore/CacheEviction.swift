import Foundation

/// Which cache files a ``FileCacheStore`` evicts: a pure decision over what the folder holds,
/// kept apart from the file system so it can be tested on its own.
enum CacheEviction {
    /// One cache file as the folder listing found it.
    struct Entry: Equatable {
        let name: String
        let bytes: Int64
        /// When the tag was last loaded or saved (the file's modification time).
        let lastUsed: Date
    }

    /// Why a file goes.
    enum Reason: Equatable, CustomStringConvertible {
        /// Not loaded or saved since before the age limit.
        case unused(Period)
        /// The folder was over its size limit and this was the least recently used file.
        case overSizeLimit(bytes: Int)

        var description: String {
            switch self {
            case .unused(let period): "not used for more than \(period)"
            case .overSizeLimit(let bytes): "least recently used while the cache was over its \(bytes)-byte limit"
            }
        }
    }

    /// The files to evict, in the order to evict them.
    ///
    /// - Parameters:
    ///   - entries: Every cache file in the folder.
    ///   - maxTotalBytes: The size limit, if any.
    ///   - maxUnusedAge: The age limit, if any.
    ///   - now: The current time.
    ///   - inUse: Names of files that must stay (tags observed in this process, the tag being
    ///     saved). The folder may stay over its size limit because of them.
    static func victims(
        of entries: [Entry],
        maxTotalBytes: Int?,
        maxUnusedAge: Period?,
        now: Date,
        inUse: Set<String>
    ) -> [(entry: Entry, reason: Reason)] {
        var victims: [(entry: Entry, reason: Reason)] = []
        var kept: [Entry] = []
        let cutoff = maxUnusedAge?.date(before: now)
        for entry in entries {
            if let cutoff, let maxUnusedAge, entry.lastUsed < cutoff, !inUse.contains(entry.name) {
                victims.append((entry, .unused(maxUnusedAge)))
            } else {
                kept.append(entry)
            }
        }
        guard let maxTotalBytes else { return victims }
        var total = kept.reduce(Int64(0)) { $0 + $1.bytes }
        let leastRecentlyUsedFirst = kept.filter { !inUse.contains($0.name) }.sorted {
            ($0.lastUsed, $0.name) < ($1.lastUsed, $1.name)
        }
        for entry in leastRecentlyUsedFirst where total > Int64(maxTotalBytes) {
            victims.append((entry, .overSizeLimit(bytes: maxTotalBytes)))
            total -= entry.bytes
        }
        return victims
    }
}

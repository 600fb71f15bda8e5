/// Which tags ``Teller/invalidate(tag:)``, ``Teller/invalidate(tagsUnder:)`` and
/// ``Teller/invalidateAll()`` marked as too old, until a fetch that started after the mark saves
/// them.
///
/// Marks are numbered by one counter. A fetch notes the counter when it starts and, once it saved,
/// records that number for its tag; a tag is invalid while its latest mark (its own, one of a
/// branch it is in, or an everything-mark) is newer than that. So a fetch that was already
/// running when the tag was invalidated does not clear the mark (its data may predate whatever
/// made the app invalidate), and a frozen test clock cannot confuse the order.
///
/// Kept in memory: an invalidation says the data changed somewhere else, and the next launch
/// reads the cache's age as usual. (The marks of writes the server took are set again at the
/// next launch by the outbox, whose journal keeps those writes until a fetch brings them back.)
///
/// The same record orders saves: a fetch that started before a mark never saves over data that
/// a fetch started after it saved (``isSuperseded(_:startedAt:)``). Its data is older, and may
/// lack what made the app mark the tag (a write the server took, which the newer data has).
///
/// A branch's mark stays until ``invalidateAll()`` or a mark of a branch that contains it: the
/// tags in it are not known, so no fetch can tell it is done with. There is one per branch
/// ever invalidated, at most.
struct Invalidations {
    private var counter = 0
    private var markedAll = 0
    private var marked: [String: Int] = [:]
    private var markedBranches: [TagPrefix: Int] = [:]
    /// The counter when the last saved fetch of each tag started, for tags saved since a mark.
    private var fetched: [String: Int] = [:]

    /// The current counter: a fetch that starts now passes it to ``fetched(_:startedAt:)``.
    var stamp: Int {
        counter
    }

    func isInvalidated(_ tag: String) -> Bool {
        var mark = max(marked[tag] ?? 0, markedAll)
        for (branch, branchMark) in markedBranches where branchMark > mark && branch.contains(tag) {
            mark = branchMark
        }
        return mark > (fetched[tag] ?? 0)
    }

    mutating func invalidate(_ tag: String) {
        counter += 1
        marked[tag] = counter
    }

    mutating func invalidate(tagsUnder prefix: TagPrefix) {
        counter += 1
        // The older marks inside the branch say nothing this one does not.
        marked = marked.filter { !prefix.contains($0.key) }
        markedBranches = markedBranches.filter { !prefix.contains($0.key) }
        markedBranches[prefix] = counter
    }

    mutating func invalidateAll() {
        counter += 1
        markedAll = counter
        // Every tag is older than this mark now: the per-tag marks say nothing any more. The
        // fetch records stay: they still order the saves of fetches running now.
        marked = [:]
        markedBranches = [:]
    }

    /// Whether a fetch of `tag` that started at `stamp` must not save: a fetch that started after
    /// a mark this one predates saved already, so what is stored is newer than what it fetched.
    func isSuperseded(_ tag: String, startedAt stamp: Int) -> Bool {
        (fetched[tag] ?? 0) > stamp
    }

    /// A fetch of `tag` that started at `stamp` saved its data.
    mutating func fetched(_ tag: String, startedAt stamp: Int) {
        guard counter > 0 else { return }
        fetched[tag] = max(fetched[tag] ?? 0, stamp)
        if let mark = marked[tag], mark <= stamp {
            marked[tag] = nil
        }
    }
}

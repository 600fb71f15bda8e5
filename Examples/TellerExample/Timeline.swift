import Foundation
import Teller

/// What a `TellerPagingRepository` of repos emits.
typealias ReposState = CacheState<PagedCache<[Repo]>>

/// Prints, one line per state, what an app would tell its user, with the seconds since
/// launch; below it, the repos that appeared. Keeps the states too, so that a scripted run can
/// wait for the one it needs. Callable from any thread.
final class Timeline: @unchecked Sendable {
    // @unchecked: the mutable properties are only touched while `condition` is locked.
    private let start = Date()
    private let condition = NSCondition()
    private var states: [ReposState] = []
    private var lastLine = ""
    private var edits: [OutboxChange] = []
    private var shownRows: [Row] = []

    /// A repo as listed: with a mark while a star of it waits in the outbox.
    private struct Row: Equatable {
        let repo: Repo
        let isUnsent: Bool
    }

    /// Prints a line without a time stamp.
    func heading(_ text: String) {
        condition.lock()
        defer { condition.unlock() }
        write(text)
    }

    /// Prints a line that is not a state: a key pressed, a skipped refresh, a log event.
    func note(_ message: String) {
        condition.lock()
        defer { condition.unlock() }
        printLine(message)
    }

    /// Prints `state` (unless it reads the same as the last one) and the repos it adds or
    /// changes, and wakes whoever waits for a state.
    func record(_ state: ReposState) {
        condition.lock()
        defer { condition.unlock() }
        states.append(state)
        // A state that only clears the last one's "done" flag reads the same: skip it.
        let (event, line) = Self.describe(state, now: Date())
        if event != nil || line != lastLine {
            printLine((event.map { $0 + " — " } ?? "") + line)
            lastLine = line
        }
        if let repos = state.cache?.cache {
            let unsent = Set(StarEdit.decoded(from: state.pendingWrites).map(\.repoID))
            let rows = repos.map { Row(repo: $0, isUnsent: unsent.contains($0.id)) }
            // Paging appends and an edit changes a row in place, so only the new and changed
            // rows are listed; a refresh that starts the list over lists it all.
            let isSameList =
                rows.count >= shownRows.count && zip(rows, shownRows).allSatisfy { $0.repo.id == $1.repo.id }
            for (index, row) in rows.enumerated()
            where !isSameList || index >= shownRows.count || row != shownRows[index] {
                write(Self.describe(row, number: index + 1))
            }
            shownRows = rows
        }
        condition.broadcast()
    }

    /// Prints what happened to an edit in the outbox, and wakes whoever waits for one.
    func record(_ change: OutboxChange) {
        condition.lock()
        defer { condition.unlock() }
        edits.append(change)
        if let message = Self.describe(change) { printLine(message) }
        condition.broadcast()
    }

    /// How many states were recorded: pass it to `wait` to wait for a state after now.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return states.count
    }

    /// The last state recorded: what the user sees now.
    var latest: ReposState? {
        condition.lock()
        defer { condition.unlock() }
        return states.last
    }

    /// The state recorded at position `index` (as `wait` returns it).
    func state(at index: Int) -> ReposState {
        condition.lock()
        defer { condition.unlock() }
        return states[index]
    }

    /// How many outbox changes were recorded: pass it to `waitForEdit` to wait for one after now.
    var editCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return edits.count
    }

    /// The outbox change recorded at position `index` (as `waitForEdit` returns it).
    func edit(at index: Int) -> OutboxChange {
        condition.lock()
        defer { condition.unlock() }
        return edits[index]
    }

    /// Blocks until a state recorded at position `index` or later satisfies `isWanted`.
    ///
    /// - Returns: The position of that state, or `nil` when none came within `timeout` seconds.
    func wait(from index: Int, timeout: TimeInterval, until isWanted: (ReposState) -> Bool) -> Int? {
        wait(from: index, timeout: timeout, in: \.states, until: isWanted)
    }

    /// Blocks until an outbox change recorded at position `index` or later satisfies `isWanted`.
    ///
    /// - Returns: The position of that change, or `nil` when none came within `timeout` seconds.
    func waitForEdit(from index: Int, timeout: TimeInterval, until isWanted: (OutboxChange) -> Bool) -> Int? {
        wait(from: index, timeout: timeout, in: \.edits, until: isWanted)
    }

    private func wait<Element>(
        from index: Int,
        timeout: TimeInterval,
        in list: KeyPath<Timeline, [Element]>,
        until isWanted: (Element) -> Bool
    ) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        var next = max(index, 0)
        while true {
            let elements = self[keyPath: list]
            while next < elements.count {
                if isWanted(elements[next]) { return next }
                next += 1
            }
            guard condition.wait(until: deadline) else { return nil }
        }
    }

    private func printLine(_ text: String) {
        write(String(format: "[%6.2f s] ", Date().timeIntervalSince(start)) + text)
    }

    /// Writes straight to standard output, unbuffered: lines appear as they happen, even
    /// when the output goes to a pipe or a file.
    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// One line that tells the truth about the cache, as a screen would show it, and the
    /// event that just happened, if any.
    private static func describe(_ state: ReposState, now: Date) -> (event: String?, line: String) {
        switch state.state {
        case .noCache:
            if let error = state.errorDuringFirstFetch {
                return ("first fetch failed: \(error)", "nothing cached yet (r retries)")
            }
            if let retry = state.pendingRetry {
                return (nil, "no cache, first fetch… · " + describe(retry, now: now))
            }
            return (nil, state.isFirstFetch ? "no cache, first fetch…" : "no cache")
        case .cache(let paged, let fetched):
            let age = "fetched \(ago(fetched, now: now))"
            var line: String
            if let paged {
                let more = paged.areMorePages ? "n loads more" : "no more pages"
                line = "cache: \(paged.cache.count) repos (\(more)), \(age)"
            } else if state.isLoadingCache {
                line = "cache \(age), being read…"
            } else {
                line = "cache is empty, \(age)"
            }
            if !state.pendingWrites.isEmpty {
                let count = state.pendingWrites.count
                line += count == 1 ? " · 1 edit not sent yet" : " · \(count) edits not sent yet"
            }
            if state.isRefreshing { line += " · refreshing…" }
            if let retry = state.pendingRetry { line += " · " + describe(retry, now: now) }
            if paged?.isLoadingNextPage == true { line += " · loading the next page…" }
            if let error = paged?.nextPageError { line += " · next page failed: \(error) (n retries)" }
            if let error = state.refreshError {
                return ("refresh failed: \(error)", line + " · showing cached data")
            }
            if state.justFinishedFirstFetch { return ("first fetch done", line) }
            if state.justFinishedSuccessfulRefresh { return ("refresh done", line) }
            return (nil, line)
        }
    }

    /// "attempt 1 failed (HTTP 503), retrying in 0.5 s"
    private static func describe(_ retry: PendingRetry, now: Date) -> String {
        let seconds = max(retry.nextAttemptAt.timeIntervalSince(now), 0)
        let delay = seconds.formatted(.number.precision(.fractionLength(1)))
        return "attempt \(retry.failedAttempts) failed (\(retry.lastError)), retrying in \(delay) s"
    }

    private static func describe(_ row: Row, number: Int) -> String {
        let repo = row.repo
        let name = repo.name.padding(toLength: max(repo.name.count, 24), withPad: " ", startingAt: 0)
        var line = "\(rightAligned(number, width: 14)). \(name) ★\(rightAligned(repo.stars, width: 6))"
        if let language = repo.language { line += "  \(language)" }
        if row.isUnsent {
            line += "  · your star, not sent yet"
        } else if repo.isStarred == true {
            line += "  · your star"
        }
        return line
    }

    /// What an outbox change means for the user, or `nil` for what they need not hear about.
    private static func describe(_ change: OutboxChange) -> String? {
        func named(_ record: OutboxRecord) -> String {
            StarEdit.decoded(from: [record]).first.map { "★ \($0.repoName)" } ?? "edit \(record.kind)"
        }
        switch change {
        case .enqueued(let record): return "\(named(record)) saved in the outbox, sending…"
        case .attempted(let record):
            return "\(named(record)) not sent (attempt \(record.attempts) failed): it waits for the server (e)"
        case .sent(let record): return "\(named(record)) sent: the server took it"
        case .rejected(let rejection):
            return "\(named(rejection.record)) refused by the server (\(rejection.error)): rolled back"
        case .discarded(let record): return "\(named(record)) discarded"
        case .conflicted(let conflict):
            return "\(named(conflict.record)) conflicts with the server's data (\(conflict.error)): waiting for you"
        case .acknowledged, .reloaded, .conflictResolved: return nil
        }
    }

    private static func rightAligned(_ number: Int, width: Int) -> String {
        let text = String(number)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// "just now", "12 s ago", "3 min ago"…
    private static func ago(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<1: return "just now"
        case ..<60: return "\(seconds) s ago"
        case ..<3_600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3_600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }
}

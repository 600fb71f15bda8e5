import Dispatch
import Foundation
import Teller
import TellerRx

/// What the keys do: the calls an app's pull-to-refresh, list footer and settings would make.
///
/// Each key either returns at once (`waiting: false`, a person at the keyboard) or returns
/// once what it started has settled (`waiting: true`, a script), so scripted runs print the
/// same timeline every time.
final class Controller: Sendable {
    /// How long a scripted step may take before the run gives up: more than Teller's fetch
    /// timeout, so a slow server shows as a failed fetch first.
    static let stepTimeout: TimeInterval = 30

    let repository: TellerPagingRepository<FileCacheDataSource>
    let teller: Teller
    let timeline: Timeline
    /// The simulated server, whose error switch `e` flips; `nil` with `--url`.
    let simulated: SimulatedAPI?
    /// Where `s` puts its stars.
    let outbox: TellerOutbox

    init(
        repository: TellerPagingRepository<FileCacheDataSource>,
        teller: Teller,
        timeline: Timeline,
        simulated: SimulatedAPI?,
        outbox: TellerOutbox
    ) {
        self.repository = repository
        self.teller = teller
        self.timeline = timeline
        self.simulated = simulated
        self.outbox = outbox
    }

    /// Reads keys, one per line, until `q` or the end of the input. From a terminal each key
    /// runs at once; from a pipe each waits for the one before (after the first fetch and the
    /// first try of `launchEdits`, the edits an earlier run left in the outbox).
    ///
    /// - Returns: Whether every step settled in time.
    func readKeys(launchEdits: [UUID]) -> Bool {
        let waiting = isatty(STDIN_FILENO) == 0
        if waiting, !waitForLaunch(launchEdits) { return false }
        while let line = readLine() {
            guard let settled = perform(line, waiting: waiting) else { return true }
            if !settled { return false }
        }
        timeline.note("end of input: quitting")
        return true
    }

    /// Runs `keys` one after the other, each once the one before has settled, starting after
    /// the first fetch and the first try of `launchEdits`.
    ///
    /// - Returns: Whether every step settled in time.
    func runScript(_ keys: [String], launchEdits: [UUID]) -> Bool {
        guard waitForLaunch(launchEdits) else { return false }
        for key in keys {
            guard let settled = perform(key, waiting: true) else { return true }
            if !settled { return false }
        }
        return true
    }

    /// Runs one key.
    ///
    /// - Returns: `nil` for `q`; otherwise whether the step settled in time (always `true`
    ///   when not `waiting`).
    func perform(_ key: String, waiting: Bool) -> Bool? {
        switch key.trimmingCharacters(in: .whitespaces).lowercased() {
        case "q":
            timeline.note("q: quitting")
            return nil
        case "r": return refresh(force: false, waiting: waiting)
        case "f": return refresh(force: true, waiting: waiting)
        case "n": return nextPage(waiting: waiting)
        case "i": return invalidate(waiting: waiting)
        case "e": return toggleServerErrors(waiting: waiting)
        case "s": return star(waiting: waiting)
        case "x": refuseNextStar()
        case "": break
        default:
            timeline.note(
                "unknown key \"\(key)\": r refresh · f forced refresh · n next page · i invalidate · e errors"
                    + " · s star · x refuse the next star · q quit"
            )
        }
        return true
    }

    private func refresh(force: Bool, waiting: Bool) -> Bool {
        timeline.note(force ? "f: forced refresh" : "r: refresh")
        let mark = timeline.count
        let answered = DispatchSemaphore(value: 0)
        let timeline = self.timeline
        let outcome = LockedBox<RefreshResult?>(nil)
        do {
            // Nobody keeps the disposable: a Single runs until it answers, and disposing it
            // early would tell Teller this caller stopped waiting.
            _ = try repository.refresh(force: force).subscribe(onSuccess: { result in
                if case .skipped(let reason) = result {
                    timeline.note(
                        reason == .dataNotTooOld
                            ? "refresh skipped: the cache is younger than 1 minute (f forces it)"
                            : "refresh cancelled"
                    )
                }
                outcome.withLock { $0 = result }
                answered.signal()
            })
        } catch {
            timeline.note("\(error)")  // refresh(force:) throws only while no requirements are set
            return true
        }
        guard waiting else { return true }
        guard answered.wait(timeout: .now() + Self.stepTimeout) == .success else { return gaveUp() }
        // A skipped refresh fetched nothing; any other answer comes with states to wait for.
        if case .skipped = outcome.value { return true }
        return waitForFetch(from: mark)
    }

    private func nextPage(waiting: Bool) -> Bool {
        guard let paged = timeline.latest?.cache else {
            timeline.note("n: nothing cached yet to page on from")
            return true
        }
        guard paged.areMorePages else {
            timeline.note("n: no more pages")
            return true
        }
        guard !paged.isLoadingNextPage else {
            timeline.note("n: the next page is already loading")  // Teller would ignore it too
            return true
        }
        timeline.note("n: next page")
        let mark = timeline.count
        repository.goToNextPage()
        guard waiting else { return true }
        let settled = timeline.wait(from: mark, timeout: Self.stepTimeout) { state in
            guard let now = state.cache, !now.isLoadingNextPage else { return false }
            return now.cache.count != paged.cache.count || now.nextPageError != nil
        }
        return settled != nil || gaveUp()
    }

    /// What an app does when it learns the list changed elsewhere (a push notification): the
    /// observed repository refreshes at once, however young its cache.
    private func invalidate(waiting: Bool) -> Bool {
        guard let tag = repository.requirements?.tag else {
            timeline.note("i: nothing to invalidate yet")
            return true
        }
        timeline.note("i: invalidated \"\(tag)\"")
        let mark = timeline.count
        teller.invalidate(tag: tag)
        return !waiting || waitForFetch(from: mark)
    }

    /// Turning the errors off is what a reachability source reports as the network coming
    /// back: `networkDidBecomeAvailable()` sends the edits that wait, and retries a failed refresh.
    private func toggleServerErrors(waiting: Bool) -> Bool {
        guard let simulated else {
            timeline.note("e: the error switch belongs to the simulated server; with --url, stop your server instead")
            return true
        }
        let mark = (states: timeline.count, edits: timeline.editCount)
        let waitingEdits = outbox.pending.map(\.id)
        guard !simulated.toggleFailing() else {
            timeline.note("e: simulated server errors ON")
            return true
        }
        timeline.note(
            waitingEdits.isEmpty
                ? "e: simulated server errors off" : "e: simulated server errors off, sending the edits that wait"
        )
        teller.networkDidBecomeAvailable()
        return !waiting || settle(waitingEdits, from: mark)
    }

    /// Stars the first repo shown that the user has not starred: an edit the outbox keeps until
    /// the server takes it, shown at once (with a mark while it waits).
    private func star(waiting: Bool) -> Bool {
        guard simulated != nil else {
            timeline.note("s: stars need the simulated server's star endpoint; with --url there is none")
            return true
        }
        guard let tag = repository.requirements?.tag,
            let repo = timeline.latest?.cache?.cache.first(where: { $0.isStarred != true })
        else {
            timeline.note("s: no repo shown that you have not starred yet (n loads more)")
            return true
        }
        timeline.note("s: star \(repo.name)")
        let mark = (states: timeline.count, edits: timeline.editCount)
        let record: OutboxRecord
        do {
            // Returns once the edit is on disk: a restart from now on still has it.
            record = try outbox.enqueue(
                kind: StarEdit.kind,
                payload: StarEdit(repoID: repo.id, repoName: repo.name),
                tag: tag
            )
        } catch {
            timeline.note("s: the star was not saved: \(error)")
            return true
        }
        return !waiting || settle([record.id], from: mark)
    }

    private func refuseNextStar() {
        guard let simulated else {
            timeline.note("x: the simulated server refuses stars; with --url there are none")
            return
        }
        simulated.refuseNextStar()
        timeline.note("x: the simulated server will refuse the next star")
    }

    /// Waits for the first fetch, then for the first try of the edits an earlier run left, which
    /// the outbox sends at launch.
    private func waitForLaunch(_ launchEdits: [UUID]) -> Bool {
        guard waitForFirstFetch() else { return false }
        // With --url no handler sends stars: they wait for a run on the simulated server.
        return simulated == nil || settle(launchEdits, from: (states: 0, edits: 0))
    }

    /// Waits until each of `edits` was tried once, and the screen shows the outcome: an edit that
    /// waits is shown as pending; once none waits, the fetch that followed the sends or refusals
    /// was read.
    ///
    /// `mark` holds the counts of states and changes before the edits were made or sent. No
    /// other fetch may run from then on but the launch fetch (a scripted step starts once the
    /// one before settled), so a fetch that ends with the edits gone followed them.
    private func settle(_ edits: [UUID], from mark: (states: Int, edits: Int)) -> Bool {
        var isAnyWaiting = false
        for id in edits {
            let tried = timeline.waitForEdit(from: mark.edits, timeout: Self.stepTimeout) { change in
                switch change {
                case .attempted(let record): record.id == id
                case .sent(let record), .discarded(let record): record.id == id
                case .rejected(let rejection): rejection.record.id == id
                case .conflicted(let conflict): conflict.record.id == id
                case .enqueued, .acknowledged, .reloaded, .conflictResolved: false
                }
            }
            guard let tried else { return gaveUp() }
            if case .attempted = timeline.edit(at: tried) { isAnyWaiting = true }
        }
        guard !edits.isEmpty else { return true }
        let ids = Set(edits)
        if isAnyWaiting {
            // On the list as read: a failed fetch may end before the cache was read.
            let shown = timeline.wait(from: mark.states, timeout: Self.stepTimeout) { state in
                !state.isLoadingCache && state.pendingWrites.contains { ids.contains($0.id) }
            }
            return shown != nil || gaveUp()
        }
        guard waitForFetch(from: mark.states, where: { !$0.pendingWrites.contains { ids.contains($0.id) } }) else {
            return false
        }
        // That fetch may have started before a send, which then asks for one more: wait for it
        // too when it shows, so the list read last is the server's with the edits in it.
        let next = timeline.count
        return !timeline.state(at: next - 1).isRefreshing || waitForFetch(from: next)
    }

    /// Setting the requirements of a paging repository always fetches the first page.
    private func waitForFirstFetch() -> Bool {
        waitForFetch(from: 0)
    }

    /// Waits for the state right after a fetch ended (the flags are set on that one state
    /// only). A failed fetch changed nothing more. A successful one still shows the cache as it
    /// was before the save (not read yet, or the old repos: no flicker) until Teller, which
    /// paused observing the cache during the save, reads it again: wait for that state too, so
    /// the new repos have been printed.
    ///
    /// `isWanted` narrows down which fetch: its end must satisfy it too.
    private func waitForFetch(from mark: Int, where isWanted: (ReposState) -> Bool = { _ in true }) -> Bool {
        let ended = timeline.wait(from: mark, timeout: Self.stepTimeout) { state in
            (state.justFinishedFirstFetch || state.justFinishedSuccessfulRefresh || state.fetchError != nil)
                && isWanted(state)
        }
        guard let ended else { return gaveUp() }
        if timeline.state(at: ended).fetchError != nil { return true }
        return timeline.wait(from: ended + 1, timeout: Self.stepTimeout) { !$0.isLoadingCache } != nil || gaveUp()
    }

    private func gaveUp() -> Bool {
        timeline.note("gave up: nothing settled within \(Int(Self.stepTimeout)) s")
        return false
    }
}

/// A value shared between threads, behind a lock.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only touched while `lock` is locked.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        withLock { $0 }
    }

    /// Runs `body` with the value, which it may change, while no other thread can.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}

import Foundation

/// What a ``TellerPagingRepository`` adds to the shared ``RepositoryMachine``: the pages after the
/// first. The shared machine does everything about the first page (cache age, first fetch,
/// refreshes, waiters, automatic refreshes); this pure machine adds, through its hooks:
///
/// - The first page is a normal flight whose work deletes the old cache before saving, so a
///   refresh — even a pull-to-refresh on page N — always fetches and saves the *first* page, and
///   its success resets paging to the first page with the progress stored with it.
/// - Next pages never overlap a refresh or the trim: one asked for meanwhile waits (shown as
///   loading) and runs when they end, against the refreshed first page if the refresh succeeded
///   or the pages still shown if it failed; one already fetching when a refresh starts is
///   cancelled and waits the same way. A refresh asked for while a next page is being saved
///   joins its flight once that save ends.
/// - Automatic refreshes: the first page is fetched whenever requirements are set (or the
///   metadata is cleared); afterwards a too-old cache is refreshed (on `observe()` or a cache
///   emission) only while the first page alone is shown and no page is loading, so a list never
///   jumps back to page 1 under a user's finger.
struct PagingExtension<DataSource: PagingRepositoryDataSource>: MachineExtension {
    typealias Requirements = DataSource.Requirements
    typealias Input = PagingInput<DataSource>
    typealias Action = PagingAction<DataSource>
    typealias Effect = ExtensionEffect
    typealias PagingRequirements = DataSource.PagingRequirements
    typealias NextPageRequirements = DataSource.NextPageRequirements
    typealias Response = DataSource.FetchResult

    /// The paging progress of a first page: as stored with the metadata, or as saved by this
    /// repository's own flight.
    struct FirstPageProgress: Sendable {
        var areMorePages: Bool
        var nextPageRequirements: NextPageRequirements?
    }

    private enum NextPage {
        case idle
        /// Asked for while a refresh or the trim runs: starts when they end.
        case waiting
        case fetching(id: Int)
        case saving(id: Int, PagingRequirements, Response, mark: Int)
        /// Saved: still shown as loading until the cache, observed again, emits the new page (or
        /// shows it emits nothing when subscribed), so a footer never blinks.
        case awaitingCache

        var isLoading: Bool {
            if case .idle = self { return false }
            return true
        }

        var isSaving: Bool {
            if case .saving = self { return true }
            return false
        }
    }

    /// What the flights this repository's waiters wait for did, until its last waiter is
    /// answered. Several flights may follow each other while waiters keep joining; their saves
    /// run one after the other, so the last one tells what the cache holds.
    private struct Flight {
        enum Write {
            case none
            /// A save began: the old pages were deleted, and no successful end followed yet.
            case deleted
            /// A flight ended successfully: a new first page was saved.
            case saved
            /// The metadata changed: another flight saved a first page (or, its save throwing,
            /// left the cache empty) after the writes before.
            case replaced
        }

        var lastWrite = Write.none
        /// The progress of the first page this repository's own flight saved, if it did.
        var saved: FirstPageProgress?
    }

    /// Everything about one value of `requirements`.
    private struct Session {
        let id: Int
        let requirements: Requirements
        /// The last page shown.
        var pagingRequirements: PagingRequirements
        var areMorePages: Bool
        /// While the pages shown are older than a new first page that was saved but not read
        /// back yet: the `areMorePages` that goes with them, so one state never pairs old pages
        /// with the new first page's answer.
        var shownAreMorePages: Bool?
        var nextPageRequirements: NextPageRequirements?
        var isOnFirstPage = true
        var nextPage = NextPage.idle
        var nextPageError: (any Error)?
        var trim: Trim
        var flight = Flight()

        var isTrimming: Bool {
            if case .running = trim { true } else { false }
        }

        /// Paging starts over at `firstPage`, with `progress` (a new first page was saved, or the
        /// old pages are gone).
        mutating func reset(to firstPage: PagingRequirements, progress: FirstPageProgress?) {
            shownAreMorePages = shownAreMorePages ?? areMorePages
            pagingRequirements = firstPage
            areMorePages = progress?.areMorePages ?? false
            nextPageRequirements = progress?.nextPageRequirements
            isOnFirstPage = true
            nextPageError = nil
        }
    }

    /// The trim of a cache left from earlier: its pages beyond the first are deleted when the
    /// session starts, before anything reads the cache or a flight writes it.
    private enum Trim {
        /// A cache existed when the session started: it is being trimmed.
        case running
        case done
    }

    let firstPage: PagingRequirements
    private var session: Session?
    /// Mints session and next-page ids: one counter, so no id ever names both.
    private var nextID = 0

    init(firstPage: PagingRequirements) {
        self.firstPage = firstPage
    }

    /// The paging requirements of the last page shown.
    var pagingRequirements: PagingRequirements {
        session?.pagingRequirements ?? firstPage
    }

    /// Whether the trim of session `id` is still wanted: the session is the current one and it
    /// trims. Its write runs only then.
    func isTrimming(session id: Int) -> Bool {
        guard let session else { return false }
        return session.id == id && session.isTrimming
    }

    /// Whether the save of next page `id` is still wanted: its write runs only then.
    func isSaving(nextPage id: Int) -> Bool {
        guard case .saving(let saving, _, _, _) = session?.nextPage else { return false }
        return saving == id
    }

    /// Whether a next page exists, as observers are shown it.
    var areMorePagesAvailable: Bool {
        session.map { $0.shownAreMorePages ?? $0.areMorePages } ?? false
    }

    // MARK: Hooks

    var holdsFlightJoins: Bool {
        guard let session else { return false }
        return session.isTrimming || session.nextPage.isSaving
    }

    mutating func sessionStarted(
        _ requirements: any RepositoryRequirements,
        stored: Parcel?,
        hasCache: Bool
    ) -> [Effect] {
        let requirements = typedRequirements(requirements, as: Requirements.self)
        let stored = stored?.open(as: FirstPageProgress.self)
        nextID += 1
        session = Session(
            id: nextID,
            requirements: requirements,
            pagingRequirements: firstPage,
            areMorePages: stored?.areMorePages ?? false,
            nextPageRequirements: stored?.nextPageRequirements,
            trim: hasCache ? .running : .done
        )
        // The cache left from earlier is trimmed to its first page before anything reads it or a
        // flight writes it (flight joins are held meanwhile).
        return hasCache ? [Self.effect(.trimCache(requirements, session: nextID))] : []
    }

    mutating func sessionEnded() -> [Effect] {
        guard session != nil else { return [] }
        session = nil
        return [Self.effect(.endSession)]
    }

    func mayRefreshAutomatically(_ trigger: AutomaticRefresh, isTooOld: Bool) -> Bool {
        switch trigger {
        case .requirementsSet, .metadataCleared:
            // The pages beyond the first were trimmed (or forgotten), and paging on needs a
            // fresh first page.
            return true
        case .observed, .cacheEmitted, .appOrNetwork:
            guard let session, isTooOld, session.isOnFirstPage, case .idle = session.nextPage, !session.isTrimming
            else { return false }
            return true
        }
    }

    func viewForObserving() -> Parcel? {
        guard let session, !session.isTrimming else { return nil }
        return Sealed(session.pagingRequirements)
    }

    mutating func flightStarting() -> [Effect] {
        updateSession { session in
            session.flight = Flight()
            guard case .fetching = session.nextPage else { return [] }
            // A refresh starts: the next page waits for it, then runs against its result.
            session.nextPage = .waiting
            return [Self.effect(.cancelNextPage)]
        } ?? []
    }

    mutating func flightSaving() {
        session?.flight.lastWrite = .deleted
    }

    mutating func flightFinished(
        _ result: RefreshResult,
        saved: Parcel?,
        stored: Parcel?,
        isLast: Bool,
        context: MachineContext
    ) -> [Effect] {
        let saved = saved?.open(as: FirstPageProgress.self)
        let stored = stored?.open(as: FirstPageProgress.self)
        let firstPage = firstPage
        let reset = updateSession { session -> Bool in
            if result.didSucceed { session.flight.lastWrite = .saved }
            if let saved { session.flight.saved = saved }
            guard isLast else { return false }
            // Every waiter was answered: apply the last write to paging.
            let flight = session.flight
            session.flight = Flight()
            switch flight.lastWrite {
            case .saved:
                session.reset(to: firstPage, progress: flight.saved ?? stored)
            case .deleted:
                // The old pages were deleted before the save failed: start over at the first
                // page, with no next page until a refresh succeeds.
                session.reset(to: firstPage, progress: FirstPageProgress(areMorePages: false))
            case .replaced:
                session.reset(to: firstPage, progress: stored)
            case .none:
                return false
            }
            if case .awaitingCache = session.nextPage { session.nextPage = .idle }
            return true
        }
        guard let reset, isLast else { return [] }
        return (reset ? readAgain(context: context) : []) + resumeWaitingNextPage(context: context).effects
    }

    mutating func cacheRead(_ reading: CacheReadOutcome) -> [Effect] {
        let wasAwaiting = updateSession { session -> Bool in
            if case .value = reading { session.shownAreMorePages = nil }
            guard case .awaitingCache = session.nextPage else { return false }
            session.nextPage = .idle
            return true
        }
        // A value or a failure is shown by the shared machine; a store that emits nothing when
        // subscribed would otherwise leave the list loading forever.
        if case .nothing = reading, wasAwaiting == true { return [.emit] }
        return []
    }

    mutating func metadataChanged(stored: Parcel?, cleared: Bool, context: MachineContext) -> [Effect] {
        let stored = stored?.open(as: FirstPageProgress.self)
        let firstPage = firstPage
        let cancels = updateSession { session -> [Effect]? in
            if context.isFetching, !cleared {
                // Saved while a refresh runs: its end applies the last write, in the order the
                // writes happened.
                session.flight.lastWrite = .replaced
                return nil
            }
            // Another repository saved a new first page of the same list (or the metadata was
            // cleared): it replaced the pages shown here.
            session.reset(to: firstPage, progress: cleared ? FirstPageProgress(areMorePages: false) : stored)
            // Cleared, nothing is shown until a first page is fetched again.
            if cleared { session.shownAreMorePages = nil }
            switch session.nextPage {
            case .fetching:
                session.nextPage = .waiting
                return [Self.effect(.cancelNextPage)]
            case .awaitingCache:
                session.nextPage = .idle
            case .idle, .waiting, .saving:
                break
            }
            return []
        }
        guard case .some(.some(let cancel)) = cancels else { return [] }
        let effects = readAgain(context: context) + cancel
        // A waiting next page dropped for want of a next page changes what observers are shown,
        // even when nothing else about the tag looks new.
        let (resumed, changed) = resumeWaitingNextPage(context: context)
        return effects + resumed + (changed ? [.emit] : [])
    }

    mutating func handle(_ input: Parcel, context: MachineContext) -> [Effect] {
        switch input.open(as: Input.self) {
        case .goToNextPage: goToNextPage(context: context)
        case .trimmed(let id): trimmed(session: id, context: context)
        case .nextPageFetched(let id, let outcome): nextPageFetched(id: id, outcome: outcome)
        case .nextPageSaved(let id, let error): nextPageSaved(id: id, error: error, context: context)
        case .nextPageDropped(let id): nextPageDropped(id: id, context: context)
        }
    }

    func present(_ cache: Parcel) -> Parcel {
        Sealed(
            PagedCache(
                areMorePages: areMorePagesAvailable,
                cache: cache.open(as: DataSource.PagingCache.self),
                isLoadingNextPage: session?.nextPage.isLoading ?? false,
                nextPageError: session?.nextPageError
            )
        )
    }

    // MARK: Paging inputs

    private mutating func goToNextPage(context: MachineContext) -> [Effect] {
        let refused = updateSession { session -> String? in
            guard case .idle = session.nextPage else { return "a next page is loading" }
            guard session.areMorePages else { return "no more pages" }
            session.nextPageError = nil
            // Not beside a refresh or the trim: it waits for them.
            if context.isFetching || session.isTrimming { session.nextPage = .waiting }
            return nil
        }
        switch refused {
        case nil: return [.quiet("no first page")]
        case .some(.some(let reason)): return [.quiet(reason)]
        case .some(nil): break
        }
        if case .waiting = session?.nextPage { return [.emit] }
        return startNextPage() + [.emit]
    }

    private mutating func trimmed(session id: Int, context: MachineContext) -> [Effect] {
        guard
            let shown = updateSession({ session -> PagingRequirements? in
                guard session.id == id, session.isTrimming else { return nil }
                session.trim = .done
                return session.pagingRequirements
            }) ?? nil
        else { return [.quiet("a trim of another session")] }
        let (resumed, changed) = resumeWaitingNextPage(context: context)
        return [.observeCache(Sealed(shown)), .releaseHeldJoins] + resumed + (changed ? [.emit] : [])
    }

    private mutating func nextPageFetched(id: Int, outcome: NextPageOutcome<DataSource>) -> [Effect] {
        updateSession { session -> [Effect] in
            guard case .fetching(let fetching) = session.nextPage, fetching == id else {
                return [.quiet("a next page no longer fetched")]
            }
            switch outcome {
            case .failed(let error):
                session.nextPage = .idle
                session.nextPageError = error
                return [.emit]
            case .fetched(let page, let response, let mark):
                // Fetching only runs while no refresh and no trim does, so the save can start now.
                session.nextPage = .saving(id: id, page, response, mark: mark)
                return [Self.effect(.saveNextPage(id: id, session.requirements, page, response, since: mark))]
            case .firstPageBeingReplaced:
                // Another repository's flight saves a first page: the change it announces next
                // resets paging and starts the waiting page against the new first page.
                session.nextPage = .waiting
                return [.quiet("a next page waits for the first page being saved")]
            }
        } ?? [.quiet("a next page no longer fetched")]
    }

    /// A first page of the tag was saved after the next page was fetched: the page was not saved
    /// (it followed a page that is gone). The change that save announced came first and reset
    /// paging: the page starts again against the new first page.
    private mutating func nextPageDropped(id: Int, context: MachineContext) -> [Effect] {
        let dropped = updateSession { session -> Bool in
            guard case .saving(let saving, _, _, _) = session.nextPage, saving == id else { return false }
            session.nextPage = .waiting
            return true
        }
        guard dropped == true else { return [.quiet("a next page no longer saved")] }
        let (resumed, changed) = resumeWaitingNextPage(context: context)
        return [.releaseHeldJoins] + resumed + (changed ? [.emit] : [])
    }

    private mutating func nextPageSaved(id: Int, error: (any Error)?, context: MachineContext) -> [Effect] {
        updateSession { session -> [Effect] in
            guard case .saving(let saving, let page, let response, _) = session.nextPage, saving == id else {
                return [.quiet("a next page no longer saved")]
            }
            if let error {
                session.nextPage = .idle
                session.nextPageError = error
                return [.log(.saveFailed(tag: session.requirements.tag, error: error)), .emit, .releaseHeldJoins]
            }
            session.pagingRequirements = page
            session.areMorePages = response.areMorePages
            session.nextPageRequirements = response.nextPageRequirements
            session.isOnFirstPage = false
            guard context.isObserving else {
                session.nextPage = .idle
                return [.emit, .releaseHeldJoins]
            }
            // Observe again with the new paging requirements; the next emission shows the page
            // and ends the loading.
            session.nextPage = .awaitingCache
            return [.observeCache(Sealed(page)), .releaseHeldJoins]
        } ?? [.quiet("a next page no longer saved")]
    }

    // MARK: Helpers

    /// Runs `body` on the current session in place, or returns `nil` when there is none. The
    /// session is taken out meanwhile, so no second copy of it is alive and nothing in it is
    /// copied on write; `body` must not use the extension.
    private mutating func updateSession<Result>(_ body: (inout Session) -> Result) -> Result? {
        guard var current = session.take() else { return nil }
        defer { session = current }
        return body(&current)
    }

    /// Observes the cache again after paging was reset to the first page: its pages may have
    /// been read already, and only a value read afterwards shows the new `areMorePages` (see
    /// `shownAreMorePages`). Not observing, the shared machine reads it when it observes.
    private func readAgain(context: MachineContext) -> [Effect] {
        context.isObserving ? [.observeCache(Sealed(firstPage))] : []
    }

    /// Starts a next page that waited, if nothing blocks it any more, or drops it when there is
    /// no next page now. `changed` says whether dropping it changed what observers are shown.
    private mutating func resumeWaitingNextPage(context: MachineContext) -> (effects: [Effect], changed: Bool) {
        let dropped = updateSession { session -> Bool? in
            guard case .waiting = session.nextPage, !context.isFetching, !session.isTrimming else { return nil }
            guard session.areMorePages else {
                session.nextPage = .idle
                return true
            }
            return false
        }
        switch dropped {
        case .some(.some(true)): return ([], true)
        case .some(.some(false)): return (startNextPage(), false)
        case nil, .some(nil): return ([], false)
        }
    }

    private mutating func startNextPage() -> [Effect] {
        guard let session else { return [] }
        nextID += 1
        self.session?.nextPage = .fetching(id: nextID)
        return [
            Self.effect(
                .fetchNextPage(
                    id: nextID,
                    session.requirements,
                    current: session.pagingRequirements,
                    next: session.nextPageRequirements
                )
            )
        ]
    }
}

extension PagingExtension {
    /// An action of this kind, sealed for the shared machine.
    static func effect(_ action: Action) -> Effect {
        .extra(Sealed(action))
    }
}

extension RepositoryMachine {
    /// The paging part of a paging repository's machine (`nil` for a plain repository's).
    func paging<DataSource>(of dataSource: DataSource.Type) -> PagingExtension<DataSource>? {
        ext as? PagingExtension<DataSource>
    }
}

/// What only a paging repository's machine hears.
enum PagingInput<DataSource: PagingRepositoryDataSource> {
    case goToNextPage
    /// `persistOnlyFirstPage` finished for the session.
    case trimmed(session: Int)
    case nextPageFetched(id: Int, NextPageOutcome<DataSource>)
    case nextPageSaved(id: Int, error: (any Error)?)
    /// The save of the next page `id` was dropped: a first page was saved since it was fetched.
    case nextPageDropped(id: Int)
}

/// What only a paging repository's machine asks for.
enum PagingAction<DataSource: PagingRepositoryDataSource> {
    /// Run `persistOnlyFirstPage` on the background scheduler, then send `.trimmed(session:)`.
    case trimCache(DataSource.Requirements, session: Int)
    /// The session ended: cancel its trim and next page, and drop its writes not yet started.
    case endSession
    /// Fetch the page after `current`, then send `.nextPageFetched(id:…)`.
    case fetchNextPage(
        id: Int,
        DataSource.Requirements,
        current: DataSource.PagingRequirements,
        next: DataSource.NextPageRequirements?
    )
    case cancelNextPage
    /// Save a fetched next page on the background scheduler, then send `.nextPageSaved(id:…)`,
    /// or `.nextPageDropped(id:)` when a first page was saved since `mark`.
    case saveNextPage(
        id: Int,
        DataSource.Requirements,
        DataSource.PagingRequirements,
        DataSource.FetchResult,
        since: Int
    )
}

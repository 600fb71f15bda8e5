import Foundation

/// The decisions of one ``TellerPagingRepository``, free of threads and I/O: each input returns
/// the actions to perform, in order.
///
/// It wraps a ``RepositoryStateMachine`` for everything about the first page (cache age, first
/// fetch, refreshes, their callers and one-shot flags) and adds the pages after it:
///
/// - The first page is a normal flight whose work deletes the old cache before saving, so a
///   refresh — even a pull-to-refresh on page N — always fetches and saves the *first* page, and
///   its success resets paging to the first page with the progress stored with it.
/// - Next pages never overlap a refresh or the trim: one asked for meanwhile waits (shown as
///   loading) and runs when they end, against the refreshed first page if the refresh succeeded
///   or the pages still shown if it failed; one already fetching when a refresh starts is
///   cancelled and waits the same way. A refresh asked for while a next page is being saved
///   joins its flight once that save ends. So the data source's writes never run at once.
/// - Automatic refreshes: the first page is fetched whenever requirements are set; afterwards
///   a too-old cache is refreshed (on `observe()` or a cache emission) only while the first page
///   alone is shown and no page is loading, so a list never jumps back to page 1 under a
///   user's finger.
struct PagingStateMachine<DataSource: PagingRepositoryDataSource>: EngineMachine {
    typealias Requirements = DataSource.Requirements
    typealias PagingRequirements = DataSource.PagingRequirements
    typealias NextPageRequirements = DataSource.NextPageRequirements
    typealias PagingCache = DataSource.PagingCache
    typealias Response = DataSource.FetchResult
    typealias Inner = RepositoryStateMachine<Requirements, PagingCache>
    typealias Cache = PagingCache
    typealias Shown = PagedCache<PagingCache>
    typealias View = PagingRequirements
    typealias StoredExtra = FirstPageProgress
    typealias ExtraInput = PagingInput<DataSource>
    typealias ExtraAction = PagingAction<DataSource>
    typealias Action = EngineAction<Self>
    typealias CallerID = WaiterID

    struct Configuration {
        let automaticallyRefresh: Bool
        let maxAgeOfCache: Period
        let firstPage: PagingRequirements
    }

    /// The paging progress of a first page: as stored with the metadata (decoded by the effects),
    /// or as saved by this repository's own flight.
    struct FirstPageProgress: Sendable {
        var areMorePages: Bool
        var nextPageRequirements: NextPageRequirements?
    }

    private enum NextPage {
        case idle
        /// Asked for while a refresh or the trim runs: starts when they end.
        case waiting
        case fetching(id: Int)
        case saving(id: Int, PagingRequirements, Response)
        /// Saved: still shown as loading until the cache, observed again, emits the new page.
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

    /// This repository's callers of first-page flights (joined or deferred) until they all end.
    private struct Flights {
        var callers: Set<CallerID> = []
        /// The flight began saving: the old pages were deleted.
        var sawSaving = false
        var succeeded = false
        /// The progress of the first page this repository's own flight saved, if it did.
        var saved: FirstPageProgress?
    }

    /// Everything about one value of `requirements`.
    private struct Session {
        let id: Int
        let requirements: Requirements
        /// The inner machine's generation for these requirements, once it named it.
        var generation: Int?
        var lastFetched: Date?
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
        var needsTrim: Bool
        var isTrimming = false
        /// The generation the cache is observed with, while the inner machine wants it observed.
        var observedGeneration: Int?
        var flights: Flights?
        /// Flight joins held back while the trim or a next-page save writes to the cache.
        var deferredJoins: [(generation: Int, caller: CallerID)] = []

        var isWriting: Bool {
            isTrimming || nextPage.isSaving
        }
    }

    let configuration: Configuration
    private var inner: Inner
    private var session: Session?
    /// The inner machine's latest state with its one-shot flags cleared, to show paging changes.
    private var latest: CacheState<PagingCache>?
    private var nextID = 0

    init(configuration: Configuration) {
        self.configuration = configuration
        inner = Inner(
            configuration: Inner.Configuration(
                // Automatic refreshes are decided here (see the type's comment).
                automaticallyRefresh: false,
                maxAgeOfCache: configuration.maxAgeOfCache
            )
        )
    }

    var requirements: Requirements? {
        inner.requirements
    }

    var pagingRequirements: PagingRequirements {
        session?.pagingRequirements ?? configuration.firstPage
    }

    var isShutDown: Bool {
        inner.isShutDown
    }

    mutating func makeWaiterID() -> WaiterID {
        inner.makeWaiterID()
    }

    func joinPolicy(now: Date) -> RefreshDesk.JoinPolicy {
        // Every refresh goes through the machine, which holds joins back while pages are written.
        .closed
    }

    // MARK: Inputs

    mutating func handle(_ input: EngineInput<Self>, now: Date) -> [Action] {
        switch input {
        case .setRequirements(let requirements, let stored):
            setRequirements(requirements, lastFetched: stored?.lastFetched, firstPage: stored?.extra, now: now)
        case .observed:
            observed(now: now)
        case .refresh(let waiter, let force):
            refresh(caller: waiter, force: force, now: now)
        case .refreshIfNoCache(let waiter):
            refreshIfNoCache(caller: waiter, now: now)
        case .flightSaving(let generation):
            flightSaving(generation: generation)
        case .flightFinished(let generation, let waiter, let result, let stored, let saved):
            flightFinished(
                generation: generation,
                caller: waiter,
                result: result,
                lastFetched: stored?.lastFetched,
                stored: stored?.extra,
                saved: saved
            )
        case .cacheEmitted(let generation, let cache, let isEmpty):
            cacheEmitted(generation: generation, cache: cache, isEmpty: isEmpty, now: now)
        case .cacheFailed(let generation, let error):
            cacheFailed(generation: generation, error: error)
        case .metadataChanged(let tag, let stored):
            metadataChanged(tag: tag, lastFetched: stored?.lastFetched, firstPage: stored?.extra, now: now)
        case .extra(.goToNextPage):
            goToNextPage()
        case .extra(.trimmed(let session)):
            trimmed(session: session)
        case .extra(.nextPageFetched(let id, let outcome)):
            nextPageFetched(id: id, outcome: outcome)
        case .extra(.nextPageSaved(let id, let error)):
            nextPageSaved(id: id, error: error)
        case .shutDown:
            shutDown()
        }
    }

    mutating func setRequirements(
        _ requirements: Requirements?,
        lastFetched: Date?,
        firstPage: FirstPageProgress?,
        now: Date
    ) -> [Action] {
        guard !inner.isShutDown else { return [] }
        let ending = endSession()
        var innerActions = inner.setRequirements(requirements, lastFetched: lastFetched, now: now)
        if let requirements {
            nextID += 1
            session = Session(
                id: nextID,
                requirements: requirements,
                lastFetched: lastFetched,
                pagingRequirements: configuration.firstPage,
                areMorePages: firstPage?.areMorePages ?? false,
                nextPageRequirements: firstPage?.nextPageRequirements,
                needsTrim: lastFetched != nil
            )
            if configuration.automaticallyRefresh {
                // The first page is fetched whenever requirements are set: the pages beyond it
                // were trimmed, and paging on needs a fresh first page. The refresh emits the
                // state, which then already says a fetch runs.
                innerActions.removeAll { $0.isEmit }
                innerActions += inner.refresh(waiter: inner.makeWaiterID(), force: true, now: now)
            }
        }
        return ending + translate(innerActions)
    }

    mutating func observed(now: Date) -> [Action] {
        guard shouldRefreshAutomatically(now: now) else { return [] }
        return translate(inner.refresh(waiter: inner.makeWaiterID(), force: true, now: now))
    }

    mutating func refresh(caller: CallerID, force: Bool, now: Date) -> [Action] {
        translate(inner.refresh(waiter: caller, force: force, now: now))
    }

    mutating func refreshIfNoCache(caller: CallerID, now: Date) -> [Action] {
        translate(inner.refreshIfNoCache(waiter: caller, now: now))
    }

    mutating func goToNextPage() -> [Action] {
        guard var session, case .idle = session.nextPage, session.areMorePages else { return [] }
        session.nextPageError = nil
        if session.flights != nil || session.isTrimming {
            session.nextPage = .waiting
            self.session = session
            return emitPagingChange()
        }
        self.session = session
        return startNextPage() + emitPagingChange()
    }

    mutating func trimmed(session id: Int) -> [Action] {
        guard var session, session.id == id, session.isTrimming else { return [] }
        session.isTrimming = false
        var actions: [Action] = []
        if let generation = session.observedGeneration {
            actions.append(.observeCache(session.requirements, session.pagingRequirements, generation: generation))
        }
        self.session = session
        actions += releaseDeferredJoins()
        let (resumed, changed) = resumeWaitingNextPage()
        return actions + resumed + (changed ? emitPagingChange() : [])
    }

    mutating func nextPageFetched(id: Int, outcome: NextPageOutcome<DataSource>) -> [Action] {
        guard var session, case .fetching(let fetching) = session.nextPage, fetching == id else { return [] }
        switch outcome {
        case .failed(let error):
            session.nextPage = .idle
            session.nextPageError = error
            self.session = session
            return emitPagingChange()
        case .fetched(let page, let response):
            // Fetching only runs while no refresh and no trim does, so the save can start now.
            session.nextPage = .saving(id: id, page, response)
            self.session = session
            return [.extra(.saveNextPage(id: id, session.requirements, page, response))]
        }
    }

    mutating func nextPageSaved(id: Int, error: (any Error)?) -> [Action] {
        guard var session, case .saving(let saving, let page, let response) = session.nextPage, saving == id else {
            return []
        }
        var actions: [Action] = []
        if let error {
            session.nextPage = .idle
            session.nextPageError = error
            self.session = session
            actions.append(.log(.saveFailed(tag: session.requirements.tag, error: error)))
            actions += emitPagingChange()
        } else {
            session.pagingRequirements = page
            session.areMorePages = response.areMorePages
            session.nextPageRequirements = response.nextPageRequirements
            session.isOnFirstPage = false
            if let generation = session.observedGeneration {
                // Observe again with the new paging requirements; the next emission shows the
                // page and ends the loading.
                session.nextPage = .awaitingCache
                actions.append(.observeCache(session.requirements, page, generation: generation))
                self.session = session
            } else {
                session.nextPage = .idle
                self.session = session
                actions += emitPagingChange()
            }
        }
        return actions + releaseDeferredJoins()
    }

    mutating func flightSaving(generation: Int) -> [Action] {
        if var session, session.generation == generation, var flights = session.flights {
            flights.sawSaving = true
            session.flights = flights
            self.session = session
        }
        return translate(inner.flightSaving(generation: generation))
    }

    /// A flight ended for `caller`. `lastFetched` and `stored` are the tag's metadata after it;
    /// `saved` is the progress of the first page this repository's flight saved since the last
    /// call, if any (it wins over `stored`, which lacks next-page requirements that are not `Codable`).
    mutating func flightFinished(
        generation: Int,
        caller: CallerID,
        result: RefreshResult,
        lastFetched: Date?,
        stored: FirstPageProgress?,
        saved: FirstPageProgress?
    ) -> [Action] {
        var settled: [Action] = []
        if var session, session.generation == generation, var flights = session.flights,
            flights.callers.remove(caller) != nil
        {
            if result.didSucceed { flights.succeeded = true }
            if let saved { flights.saved = saved }
            session.flights = flights.callers.isEmpty ? nil : flights
            self.session = session
            if flights.callers.isEmpty {
                // Settle paging before the inner machine emits the flight's end.
                settled = settle(flights, lastFetched: lastFetched, firstPage: flights.saved ?? stored)
            }
        }
        let actions = translate(
            inner.flightFinished(generation: generation, waiter: caller, result: result, lastFetched: lastFetched)
        )
        return actions + settled
    }

    mutating func cacheEmitted(generation: Int, cache: PagingCache, isEmpty: Bool, now: Date) -> [Action] {
        if var session, session.observedGeneration == generation {
            session.shownAreMorePages = nil
            if case .awaitingCache = session.nextPage { session.nextPage = .idle }
            self.session = session
        }
        var innerActions = inner.cacheEmitted(generation: generation, cache: cache, isEmpty: isEmpty, now: now)
        if innerActions.contains(where: \.isEmit), shouldRefreshAutomatically(now: now) {
            innerActions.removeAll { $0.isEmit }
            innerActions += inner.refresh(waiter: inner.makeWaiterID(), force: true, now: now)
        }
        return translate(innerActions)
    }

    mutating func cacheFailed(generation: Int, error: any Error) -> [Action] {
        if var session, session.observedGeneration == generation {
            session.observedGeneration = nil
            if case .awaitingCache = session.nextPage { session.nextPage = .idle }
            self.session = session
        }
        return translate(inner.cacheFailed(generation: generation, error: error))
    }

    /// The metadata of `tag` changed. When this repository runs no flight of its own, another
    /// repository saved a new first page of the same list, which replaced the pages shown here.
    mutating func metadataChanged(tag: String, lastFetched: Date?, firstPage: FirstPageProgress?, now: Date) -> [Action]
    {
        var before: [Action] = []
        var changed = false
        if var session, session.requirements.tag == tag, session.flights == nil, let lastFetched,
            lastFetched != session.lastFetched
        {
            session.lastFetched = lastFetched
            resetToFirstPage(&session, progress: firstPage)
            switch session.nextPage {
            case .fetching:
                before.append(.extra(.cancelNextPage))
                session.nextPage = .waiting
            case .awaitingCache:
                session.nextPage = .idle
            case .idle, .waiting, .saving:
                break
            }
            self.session = session
            changed = true
        }
        var actions = before + translate(inner.metadataChanged(tag: tag, lastFetched: lastFetched, now: now))
        if changed {
            if !actions.contains(where: \.isEmit) { actions += emitPagingChange() }
            actions += resumeWaitingNextPage().actions
        }
        return actions
    }

    mutating func shutDown() -> [Action] {
        guard !inner.isShutDown else { return [] }
        return endSession() + translate(inner.shutDown())
    }

    // MARK: Helpers

    /// Takes the inner machine's actions, adding paging to states and cache observation, and
    /// holding flight joins back while the cache is being written.
    private mutating func translate(_ innerActions: [Inner.Action]) -> [Action] {
        var actions: [Action] = []
        for innerAction in innerActions {
            switch innerAction {
            case .emit(let state):
                actions.append(.emit(present(state)))
                latest = state.clearingOneShots()
            case .observeCache(let requirements, _, let generation):
                guard var session else { continue }
                session.generation = generation
                session.observedGeneration = generation
                if session.needsTrim {
                    // The cache left from earlier is trimmed to its first page before it is read.
                    session.needsTrim = false
                    session.isTrimming = true
                    actions.append(.extra(.trimCache(requirements, session: session.id)))
                } else if !session.isTrimming {
                    actions.append(.observeCache(requirements, session.pagingRequirements, generation: generation))
                }
                self.session = session
            case .stopObservingCache:
                session?.observedGeneration = nil
                actions.append(.stopObservingCache)
            case .joinFlight(let requirements, let generation, let caller):
                guard var session else { continue }
                session.generation = generation
                var flights = session.flights ?? Flights()
                if session.flights == nil, case .fetching = session.nextPage {
                    // A refresh starts: the next page waits for it, then runs against its result.
                    actions.append(.extra(.cancelNextPage))
                    session.nextPage = .waiting
                }
                flights.callers.insert(caller)
                session.flights = flights
                if session.isWriting {
                    session.deferredJoins.append((generation, caller))
                } else {
                    actions.append(.joinFlight(requirements, generation: generation, waiter: caller))
                }
                self.session = session
            case .leaveFlights:
                actions.append(.leaveFlights)
            case .respond(let caller, let result):
                actions.append(.respond(caller, result))
            case .complete:
                actions.append(.complete)
            case .log(let event):
                actions.append(.log(event))
            case .extra(let never):
                switch never {}
            }
        }
        return actions
    }

    /// The requirements are replaced or the repository is gone: stop this session's work.
    private mutating func endSession() -> [Action] {
        guard let ending = session else { return [] }
        session = nil
        latest = nil
        var actions: [Action] = []
        if ending.isTrimming { actions.append(.extra(.cancelTrim)) }
        if case .fetching = ending.nextPage { actions.append(.extra(.cancelNextPage)) }
        for join in ending.deferredJoins {
            actions.append(.log(.refreshSkipped(tag: ending.requirements.tag, reason: .cancelled)))
            actions.append(.respond(join.caller, .skipped(reason: .cancelled)))
        }
        return actions
    }

    /// Every flight of this repository ended: apply their outcome to paging.
    private mutating func settle(_ flights: Flights, lastFetched: Date?, firstPage: FirstPageProgress?) -> [Action] {
        guard var session else { return [] }
        if flights.succeeded {
            session.lastFetched = lastFetched ?? session.lastFetched
            resetToFirstPage(&session, progress: firstPage)
        } else if flights.sawSaving {
            // The old pages were deleted before the save failed: start over at the first page,
            // with no next page until a refresh succeeds.
            resetToFirstPage(&session, progress: FirstPageProgress(areMorePages: false))
        }
        if case .awaitingCache = session.nextPage, flights.succeeded || flights.sawSaving {
            session.nextPage = .idle
        }
        self.session = session
        // The inner machine emits the flight's end right after, showing any change.
        return resumeWaitingNextPage().actions
    }

    private func resetToFirstPage(_ session: inout Session, progress: FirstPageProgress?) {
        session.shownAreMorePages = session.shownAreMorePages ?? session.areMorePages
        session.pagingRequirements = configuration.firstPage
        session.areMorePages = progress?.areMorePages ?? false
        session.nextPageRequirements = progress?.nextPageRequirements
        session.isOnFirstPage = true
        session.nextPageError = nil
    }

    /// Starts a next page that waited, if nothing blocks it any more, or drops it when there is
    /// no next page now. `changed` says whether that dropped the loading flag.
    private mutating func resumeWaitingNextPage() -> (actions: [Action], changed: Bool) {
        guard var session, case .waiting = session.nextPage, session.flights == nil, !session.isTrimming else {
            return ([], false)
        }
        guard session.areMorePages else {
            session.nextPage = .idle
            self.session = session
            return ([], true)
        }
        return (startNextPage(), false)
    }

    private mutating func startNextPage() -> [Action] {
        guard var session else { return [] }
        nextID += 1
        session.nextPage = .fetching(id: nextID)
        self.session = session
        return [
            .extra(
                .fetchNextPage(
                    id: nextID,
                    session.requirements,
                    current: session.pagingRequirements,
                    next: session.nextPageRequirements
                )
            )
        ]
    }

    private mutating func releaseDeferredJoins() -> [Action] {
        guard var session, !session.isWriting, !session.deferredJoins.isEmpty else { return [] }
        let joins = session.deferredJoins
        session.deferredJoins = []
        self.session = session
        return joins.map { .joinFlight(session.requirements, generation: $0.generation, waiter: $0.caller) }
    }

    private func shouldRefreshAutomatically(now: Date) -> Bool {
        guard configuration.automaticallyRefresh, let session, session.isOnFirstPage, case .idle = session.nextPage,
            session.flights == nil, !session.isTrimming
        else { return false }
        guard let lastFetched = session.lastFetched else { return true }
        return configuration.maxAgeOfCache.isTooOld(lastFetched: lastFetched, now: now)
    }

    private func present(_ state: CacheState<PagingCache>) -> CacheState<PagedCache<PagingCache>> {
        let session = self.session
        return state.convert { cache in
            cache.map {
                PagedCache(
                    areMorePages: session.map { $0.shownAreMorePages ?? $0.areMorePages } ?? false,
                    cache: $0,
                    isLoadingNextPage: session?.nextPage.isLoading ?? false,
                    nextPageError: session?.nextPageError
                )
            }
        }
    }

    /// The latest state again, showing a change of paging only.
    private func emitPagingChange() -> [Action] {
        guard let latest else { return [] }
        return [.emit(present(latest))]
    }
}

extension EngineAction {
    fileprivate var isEmit: Bool {
        if case .emit = self { return true }
        return false
    }
}

extension CacheState {
    /// The same state without its "just happened" flags and errors, which belong to the state
    /// they were first shown in.
    fileprivate func clearingOneShots() -> CacheState {
        CacheState(
            state: state,
            requirements: requirements,
            isLoadingCache: isLoadingCache,
            isRefreshing: isRefreshing,
            isFirstFetch: isFirstFetch
        )
    }
}

/// What only a paging repository's machine hears.
enum PagingInput<DataSource: PagingRepositoryDataSource> {
    case goToNextPage
    /// `persistOnlyFirstPage` finished for the session.
    case trimmed(session: Int)
    case nextPageFetched(id: Int, NextPageOutcome<DataSource>)
    case nextPageSaved(id: Int, error: (any Error)?)
}

/// What only a paging repository's machine asks for.
enum PagingAction<DataSource: PagingRepositoryDataSource> {
    /// Run `persistOnlyFirstPage` on the background scheduler, then send `.trimmed(session:)`.
    case trimCache(DataSource.Requirements, session: Int)
    case cancelTrim
    /// Fetch the page after `current`, then send `.nextPageFetched(id:…)`.
    case fetchNextPage(
        id: Int,
        DataSource.Requirements,
        current: DataSource.PagingRequirements,
        next: DataSource.NextPageRequirements?
    )
    case cancelNextPage
    /// Save a fetched next page on the background scheduler, then send `.nextPageSaved(id:…)`.
    case saveNextPage(id: Int, DataSource.Requirements, DataSource.PagingRequirements, DataSource.FetchResult)
}

import Foundation
import TellerRx

/// The engine behind a ``TellerPagingRepository``: feeds inputs to the ``PagingStateMachine``
/// one at a time and performs the actions it returns, exactly as ``RepositoryCore`` does for a
/// ``TellerRepository`` (same mailbox, same threading), plus the paging work: the trim, next-page
/// fetches and saves.
final class PagingCore<DataSource: PagingRepositoryDataSource>: @unchecked Sendable {
    // @unchecked: `dataSource` is only called on the Teller's schedulers, as
    // PagingRepositoryDataSource documents; all mutable state is in `mailbox`.
    typealias Requirements = DataSource.Requirements
    typealias Cache = PagedCache<DataSource.PagingCache>
    typealias Machine = PagingStateMachine<DataSource>
    typealias CallerID = Machine.CallerID
    typealias StateObserver = AnyObserver<CacheState<Cache>>

    enum Input {
        case setRequirements(Requirements?)
        case observed
        case refresh(CallerID, force: Bool)
        case refreshIfNoCache(CallerID)
        case goToNextPage
        case trimmed(session: Int)
        case nextPageFetched(id: Int, NextPageOutcome<DataSource>)
        case nextPageSaved(id: Int, error: (any Error)?)
        case flightSaving(generation: Int)
        case flightFinished(generation: Int, caller: CallerID, result: RefreshResult)
        case cacheEmitted(generation: Int, cache: DataSource.PagingCache, isEmpty: Bool)
        case cacheFailed(generation: Int, error: any Error)
        case metadataChanged(tag: String)
        case addObserver(UInt64, StateObserver)
        case removeObserver(UInt64)
        case shutDown
    }

    private struct Mailbox {
        var machine: Machine
        var inputs = InputQueue<Input>()
        /// The requirements last set, before the mailbox has processed them: what the
        /// `requirements` getter returns, so setting then reading on one thread agrees.
        var requested: Requirements?
        var callers: [CallerID: @Sendable (RefreshResult) -> Void] = [:]
        var cacheSubscription: (any Disposable)?
        var trimWork: (any Disposable)?
        var nextPageWork: (any Disposable)?
        var observers: [(id: UInt64, observer: StateObserver)] = []
        var nextObserverID: UInt64 = 0
        var latest: CacheState<Cache>?
    }

    let dataSource: DataSource
    let firstPageRequirements: DataSource.PagingRequirements
    let teller: Teller
    /// The flights this repository joined for its callers. Paging refreshes do not ride (they
    /// always go through the state machine, which holds joins back while pages are written),
    /// so only the desk's seat bookkeeping is used: which flight each caller waits for, and
    /// callers that left before their flight was joined.
    private let desk: RefreshDesk
    private let mailbox: LockedState<Mailbox>
    /// The progress of the last first page this repository's flights saved, by tag, until the
    /// flight's end reads it.
    private let savedFirstPage = LockedState<(tag: String, progress: Machine.FirstPageProgress)?>(nil)
    private let metadataSubscription = SingleAssignmentDisposable()

    init(dataSource: DataSource, firstPageRequirements: DataSource.PagingRequirements, teller: Teller) {
        self.dataSource = dataSource
        self.firstPageRequirements = firstPageRequirements
        self.teller = teller
        let configuration = Machine.Configuration(
            automaticallyRefresh: dataSource.automaticallyRefresh,
            maxAgeOfCache: dataSource.maxAgeOfCache,
            firstPage: firstPageRequirements
        )
        mailbox = LockedState(Mailbox(machine: Machine(configuration: configuration)))
        desk = RefreshDesk(log: { [teller] event in teller.log(event) })
        metadataSubscription.setDisposable(
            teller.metadataChanges.subscribe(onNext: { [weak self] tag in
                self?.send(.metadataChanged(tag: tag))
            })
        )
    }

    var requirements: Requirements? {
        mailbox.withLock { $0.requested }
    }

    var pagingRequirements: DataSource.PagingRequirements {
        mailbox.withLock { $0.machine.pagingRequirements }
    }

    // MARK: Entry points

    /// An observable of states: the latest at once, then every change, until shut down.
    func states() -> Observable<CacheState<Cache>> {
        Observable.create { [self] observer in
            let id = mailbox.withLock { mailbox -> UInt64 in
                mailbox.nextObserverID += 1
                return mailbox.nextObserverID
            }
            send(.observed)
            send(.addObserver(id, observer))
            return Disposables.create { [weak self] in self?.send(.removeObserver(id)) }
        }
    }

    /// Registers a refresh caller; `respond` gets exactly one result unless cancelled first.
    func register(_ respond: @escaping @Sendable (RefreshResult) -> Void) -> CallerID {
        mailbox.withLock { mailbox in
            let caller = mailbox.machine.makeCallerID()
            mailbox.callers[caller] = respond
            return caller
        }
    }

    /// The caller stopped waiting (its `Single` was disposed).
    func cancel(_ caller: CallerID) {
        let wasWaiting = mailbox.withLock { $0.callers.removeValue(forKey: caller) != nil }
        if wasWaiting {
            desk.anchorCancelled(caller)
        }
    }

    func shutDown() {
        metadataSubscription.dispose()
        send(.shutDown)
    }

    // MARK: Mailbox

    func send(_ input: Input) {
        if mailbox.withLock({ $0.inputs.enqueue(input) }) {
            drain()
        }
    }

    /// Queues new requirements and records them, under one lock, as what `requirements` reads
    /// back at once.
    func setRequirements(_ requirements: Requirements?) {
        let shouldDrain = mailbox.withLock { mailbox -> Bool in
            mailbox.requested = requirements
            return mailbox.inputs.enqueue(.setRequirements(requirements))
        }
        if shouldDrain {
            drain()
        }
    }

    private func drain() {
        while let input = mailbox.withLock({ $0.inputs.next() }) {
            process(input)
        }
    }

    private func process(_ input: Input) {
        let now = teller.now
        switch input {
        case .setRequirements(let requirements):
            let metadata = requirements.flatMap { teller.metadataStore.metadata(forTag: $0.tag) }
            let firstPage = requirements.flatMap { firstPageProgress(metadata, tag: $0.tag) }
            perform(
                mailbox.withLock {
                    $0.machine.setRequirements(
                        requirements,
                        lastFetched: metadata?.lastFetched,
                        firstPage: firstPage,
                        now: now
                    )
                }
            )
        case .observed:
            perform(mailbox.withLock { $0.machine.observed(now: now) })
        case .refresh(let caller, let force):
            perform(mailbox.withLock { $0.machine.refresh(caller: caller, force: force, now: now) })
        case .refreshIfNoCache(let caller):
            perform(mailbox.withLock { $0.machine.refreshIfNoCache(caller: caller, now: now) })
        case .goToNextPage:
            perform(mailbox.withLock { $0.machine.goToNextPage() })
        case .trimmed(let session):
            perform(mailbox.withLock { $0.machine.trimmed(session: session) })
        case .nextPageFetched(let id, let outcome):
            perform(mailbox.withLock { $0.machine.nextPageFetched(id: id, outcome: outcome) })
        case .nextPageSaved(let id, let error):
            perform(mailbox.withLock { $0.machine.nextPageSaved(id: id, error: error) })
        case .flightSaving(let generation):
            perform(mailbox.withLock { $0.machine.flightSaving(generation: generation) })
        case .flightFinished(let generation, let caller, let result):
            let tag = mailbox.withLock { $0.machine.requirements?.tag }
            let metadata = tag.flatMap { teller.metadataStore.metadata(forTag: $0) }
            let stored = tag.flatMap { firstPageProgress(metadata, tag: $0) }
            let saved = savedFirstPage.withLock { saved in
                defer { saved = nil }
                return saved.flatMap { $0.tag == tag ? $0.progress : nil }
            }
            perform(
                mailbox.withLock {
                    $0.machine.flightFinished(
                        generation: generation,
                        caller: caller,
                        result: result,
                        lastFetched: metadata?.lastFetched,
                        stored: stored,
                        saved: saved
                    )
                }
            )
        case .cacheEmitted(let generation, let cache, let isEmpty):
            perform(
                mailbox.withLock {
                    $0.machine.cacheEmitted(generation: generation, cache: cache, isEmpty: isEmpty, now: now)
                }
            )
        case .cacheFailed(let generation, let error):
            perform(mailbox.withLock { $0.machine.cacheFailed(generation: generation, error: error) })
        case .metadataChanged(let tag):
            let metadata = teller.metadataStore.metadata(forTag: tag)
            let firstPage = firstPageProgress(metadata, tag: tag)
            perform(
                mailbox.withLock {
                    $0.machine.metadataChanged(tag: tag, lastFetched: metadata?.lastFetched, firstPage: firstPage)
                }
            )
        case .addObserver(let id, let observer):
            let (isShutDown, latest) = mailbox.withLock { mailbox -> (Bool, CacheState<Cache>?) in
                if mailbox.machine.isShutDown { return (true, nil) }
                mailbox.observers.append((id, observer))
                return (false, mailbox.latest)
            }
            if isShutDown {
                observer.onCompleted()
            } else if let latest {
                observer.onNext(latest)
            }
        case .removeObserver(let id):
            mailbox.withLock { $0.observers.removeAll { $0.id == id } }
        case .shutDown:
            perform(mailbox.withLock { $0.machine.shutDown() })
        }
    }

    /// The paging progress stored with the last first page of `tag`, decoded.
    private func firstPageProgress(_ metadata: FetchMetadata?, tag: String) -> Machine.FirstPageProgress? {
        guard let paging = metadata?.paging else { return nil }
        guard let data = paging.nextPageRequirements else {
            return Machine.FirstPageProgress(areMorePages: paging.areMorePages)
        }
        do {
            let next = try NextPageRequirementsCoding.decode(data, as: DataSource.NextPageRequirements.self)
            return Machine.FirstPageProgress(areMorePages: paging.areMorePages, nextPageRequirements: next)
        } catch {
            // Stored by another version of the app: page on once a refresh fetched the first page.
            teller.log(.metadataProblem("could not decode the next-page requirements of \"\(tag)\": \(error)"))
            return Machine.FirstPageProgress(areMorePages: false)
        }
    }

    // MARK: Actions

    private func perform(_ actions: [Machine.Action]) {
        for action in actions {
            perform(action)
        }
    }

    private func perform(_ action: Machine.Action) {
        switch action {
        case .emit(let state):
            let observers = mailbox.withLock { mailbox in
                mailbox.latest = state
                return mailbox.observers
            }
            for entry in observers { entry.observer.onNext(state) }
        case .observeCache(let requirements, let pagingRequirements, let generation):
            let subscription = observeCache(requirements, pagingRequirements, generation: generation)
            replace(\.cacheSubscription, with: subscription)
        case .stopObservingCache:
            replace(\.cacheSubscription, with: nil)
        case .trimCache(let requirements, let session):
            replace(\.trimWork, with: trim(requirements, session: session))
        case .cancelTrim:
            replace(\.trimWork, with: nil)
        case .joinFlight(let requirements, let generation, let caller):
            joinFlight(requirements, generation: generation, caller: caller)
        case .leaveFlights:
            // Disposing a seat's token answers its caller through the flight (no riders here).
            for token in desk.leaveAll().tokens { token.dispose() }
        case .respond(let caller, let result):
            let respond = mailbox.withLock { $0.callers.removeValue(forKey: caller) }
            _ = desk.closeSeat(of: caller)
            respond?(result)
        case .fetchNextPage(let id, let requirements, let current, let next):
            replace(\.nextPageWork, with: fetchNextPage(id: id, requirements, current: current, next: next))
        case .cancelNextPage:
            replace(\.nextPageWork, with: nil)
        case .saveNextPage(let id, let requirements, let pagingRequirements, let response):
            saveNextPage(id: id, requirements, pagingRequirements, response)
        case .complete:
            let observers = mailbox.withLock { mailbox in
                defer { mailbox.observers = [] }
                return mailbox.observers
            }
            for entry in observers { entry.observer.onCompleted() }
        case .log(let event):
            teller.log(event)
        }
    }

    /// Stores `disposable` in a slot of the mailbox and disposes what it held, outside the lock.
    private func replace(_ slot: WritableKeyPath<Mailbox, (any Disposable)?>, with disposable: (any Disposable)?) {
        let previous = mailbox.withLock { mailbox in
            defer { mailbox[keyPath: slot] = disposable }
            return mailbox[keyPath: slot]
        }
        previous?.dispose()
    }

    private func joinFlight(_ requirements: Requirements, generation: Int, caller: CallerID) {
        if desk.takeCancelledAnchor(caller) {
            send(.flightFinished(generation: generation, caller: caller, result: .skipped(reason: .cancelled)))
            return
        }
        let savedFirstPage = self.savedFirstPage
        let firstPage = FirstPageDataSource(paged: dataSource, firstPage: firstPageRequirements) { requirements, page in
            let progress = Machine.FirstPageProgress(
                areMorePages: page.areMorePages,
                nextPageRequirements: page.nextPageRequirements
            )
            savedFirstPage.withLock { $0 = (requirements.tag, progress) }
        }
        let token = teller.coordinator.join(
            tag: requirements.tag,
            waiter: { [self] event in
                switch event {
                case .saving: send(.flightSaving(generation: generation))
                case .finished(let result):
                    send(.flightFinished(generation: generation, caller: caller, result: result))
                }
            },
            makeWork: { FlightWork(dataSource: firstPage, requirements: requirements, teller: teller).run() }
        )
        let noRiders = RefreshDesk.RidingPolicy(unforced: false, ifNoCache: false)
        if !desk.takeSeat(anchor: caller, tag: requirements.tag, policy: noRiders, token: token) {
            token.dispose()
        }
    }

    private func observeCache(
        _ requirements: Requirements,
        _ pagingRequirements: DataSource.PagingRequirements,
        generation: Int
    ) -> any Disposable {
        let dataSource = UncheckedSendable(dataSource)
        let requirementsBox = UncheckedSendable(requirements)
        let pagingBox = UncheckedSendable(pagingRequirements)
        return Observable<DataSource.PagingCache>.deferred {
            dataSource.value.observeCache(requirements: requirementsBox.value, pagingRequirements: pagingBox.value)
        }
        .subscribe(on: teller.uiScheduler)
        .observe(on: teller.uiScheduler)
        .subscribe(
            onNext: { [self] cache in
                let isEmpty = dataSource.value.isCacheEmpty(
                    cache,
                    requirements: requirementsBox.value,
                    pagingRequirements: pagingBox.value
                )
                send(.cacheEmitted(generation: generation, cache: cache, isEmpty: isEmpty))
            },
            onError: { [self] error in
                send(.cacheFailed(generation: generation, error: error))
            }
        )
    }

    private func trim(_ requirements: Requirements, session: Int) -> any Disposable {
        let dataSource = UncheckedSendable(dataSource)
        let requirementsBox = UncheckedSendable(requirements)
        return teller.backgroundScheduler.schedule(()) { [self] _ in
            dataSource.value.persistOnlyFirstPage(requirements: requirementsBox.value)
            send(.trimmed(session: session))
            return Disposables.create()
        }
    }

    private func fetchNextPage(
        id: Int,
        _ requirements: Requirements,
        current: DataSource.PagingRequirements,
        next: DataSource.NextPageRequirements?
    ) -> any Disposable {
        NextPageWork(
            dataSource: dataSource,
            requirements: requirements,
            currentPage: current,
            nextPageRequirements: next,
            teller: teller
        )
        .run()
        .subscribe(onNext: { [self] outcome in send(.nextPageFetched(id: id, outcome)) })
    }

    /// Saves on the background scheduler. Not cancellable once scheduled: a write is never cut
    /// short, and the machine ignores the answer if it no longer wants it.
    private func saveNextPage(
        id: Int,
        _ requirements: Requirements,
        _ pagingRequirements: DataSource.PagingRequirements,
        _ response: DataSource.FetchResult
    ) {
        let dataSource = UncheckedSendable(dataSource)
        let arguments = UncheckedSendable((requirements, pagingRequirements, response.fetchResponse))
        _ = teller.backgroundScheduler.schedule(()) { [self] _ in
            let (requirements, pagingRequirements, page) = arguments.value
            do {
                try dataSource.value.saveCache(page, requirements: requirements, pagingRequirements: pagingRequirements)
                send(.nextPageSaved(id: id, error: nil))
            } catch {
                send(.nextPageSaved(id: id, error: error))
            }
            return Disposables.create()
        }
    }
}

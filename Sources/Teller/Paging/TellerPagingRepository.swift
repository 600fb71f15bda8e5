import Foundation
import TellerRx

/// Shows an endless list from its cache, page by page, and keeps its first page fresh.
///
/// Give it a ``PagingRepositoryDataSource`` and the requirements of the first page, set
/// ``requirements`` to say which list, ``observe()`` it, and call ``goToNextPage()`` when the
/// user scrolls to the end. It does everything a ``TellerRepository`` does for the first page,
/// and:
///
/// - **First page.** Setting ``requirements`` trims a cache left from earlier to its first page
///   (``PagingRepositoryDataSource/persistOnlyFirstPage(requirements:)``) before the cache is
///   first read, and — with automatic refresh — fetches the first page, whatever its age. Every
///   refresh, a pull-to-refresh on page N too, fetches the *first* page, deletes the old cache
///   (``PagingRepositoryDataSource/deleteCache(_:)``), saves the first page, and then resets
///   ``pagingRequirements`` to the first page. Automatic refreshes of a too-old cache happen only
///   while the first page alone is shown, so the list never jumps back under the user's finger.
/// - **Next pages.** ``goToNextPage()`` fetches the page after the last one shown and the data
///   source appends it. It does nothing while no more pages exist or a next page is loading.
/// - **Next page during a refresh.** A next page never runs at the same time as a refresh: one
///   asked for while a refresh runs waits (the state shows it loading) and runs when the refresh
///   ends — against the refreshed first page if it succeeded, against the pages still shown if it
///   failed. A next page already loading when a refresh starts is restarted the same way.
/// - **Relaunch.** `areMorePages` and the next-page requirements of the first page are stored
///   with the fetch metadata, so a relaunched app knows at once whether it can page on from its
///   cached first page, and does so (after the first refresh, or at once without automatic
///   refresh or when that refresh fails).
/// - **Failures** of a next page keep the pages shown, show the error in
///   ``PagedCache/nextPageError`` (apart from the refresh error of ``CacheState``), and
///   ``goToNextPage()`` retries the same page.
///
/// ```swift
/// let repository = TellerPagingRepository(
///     dataSource: ReposDataSource(),
///     firstPageRequirements: ReposPagingRequirements(pageNumber: 1)
/// )
/// repository.requirements = ReposRequirements(username: "octocat")
/// repository.observe()
///     .subscribe(onNext: { (state: CacheState<PagedCache<[Repo]>>) in
///         render(state.cache?.cache ?? [])
///         footer.isLoading = state.cache?.isLoadingNextPage ?? false
///         footer.isHidden = !(state.cache?.areMorePages ?? false)
///     })
///     .disposed(by: disposeBag)
/// // When the list is scrolled to its end:
/// repository.goToNextPage()
/// ```
///
/// Threads: every member may be called from any thread. States are delivered on the
/// ``Teller/uiScheduler``. When the repository is deallocated its observers complete, its
/// pending refresh callers get `.skipped(reason: .cancelled)`, and its fetches are cancelled
/// unless another repository still waits for them. Two repositories showing the same tag share
/// first-page fetches; each pages on its own.
open class TellerPagingRepository<DataSource: PagingRepositoryDataSource>: @unchecked Sendable {
    // @unchecked: all mutable state is in the engine's locked mailbox.
    /// The cached data type: the pages and their paging state.
    public typealias Cache = PagedCache<DataSource.PagingCache>

    /// The data source this repository drives.
    public let dataSource: DataSource
    /// The paging requirements of the first page, where paging starts and restarts.
    public let firstPageRequirements: DataSource.PagingRequirements
    /// The environment this repository runs in.
    public let teller: Teller
    let engine: RepositoryEngine<PagingEffects<DataSource>>

    /// Creates a paging repository for `dataSource` in `teller`'s environment.
    ///
    /// - Parameters:
    ///   - dataSource: How to fetch, save and observe the pages.
    ///   - firstPageRequirements: The paging requirements of the first page, e.g. page number 1.
    ///   - teller: Metadata store, clock, schedulers and logger; ``Teller/shared`` by default.
    public init(
        dataSource: DataSource,
        firstPageRequirements: DataSource.PagingRequirements,
        teller: Teller = .shared
    ) {
        self.dataSource = dataSource
        self.firstPageRequirements = firstPageRequirements
        self.teller = teller
        engine = RepositoryEngine(
            effects: PagingEffects(dataSource: dataSource, firstPageRequirements: firstPageRequirements, teller: teller)
        )
    }

    deinit {
        engine.shutDown()
    }

    /// Which list to show. Setting it stops all work for the previous requirements (their
    /// pending refresh callers get `.skipped(reason: .cancelled)`), restarts paging at the first
    /// page with the progress stored for the new tag, trims its cache to the first page, starts
    /// observing it if the repository is observed, and — with automatic refresh — fetches the
    /// first page. `nil` stops everything.
    open var requirements: DataSource.Requirements? {
        get { engine.requirements }
        set { engine.setRequirements(newValue) }
    }

    /// The paging requirements of the last page shown: ``firstPageRequirements`` until a next
    /// page is saved, and again after every successful refresh or change of ``requirements``.
    open var pagingRequirements: DataSource.PagingRequirements {
        engine.read { $0.paging(of: DataSource.self)?.pagingRequirements } ?? firstPageRequirements
    }

    /// Whether another page can be loaded: the last page shown said more pages exist, so
    /// ``goToNextPage()`` fetches one. `false` without ``requirements``. The same value observers
    /// see as ``PagedCache/areMorePages``; Teller-iOS's `areMorePagesAvailable`.
    open var areMorePagesAvailable: Bool {
        engine.read { $0.paging(of: DataSource.self)?.areMorePagesAvailable } ?? false
    }

    /// The cache's state: the current state at once (once ``requirements`` are set), then every
    /// change, delivered on the ``Teller/uiScheduler``. Completes when the repository is
    /// deallocated. Subscribing also triggers an automatic refresh check. The cache is read for
    /// observers: from the first subscription until the last one is disposed.
    ///
    /// The refresh of the whole list shows on ``CacheState`` (`isRefreshing`, `refreshError`…),
    /// the next page on ``PagedCache`` (``PagedCache/isLoadingNextPage``,
    /// ``PagedCache/nextPageError``). After a next page is saved the state keeps showing it
    /// loading until the cache emits it, so a footer never blinks.
    ///
    /// - Returns: An observable of ``CacheState``; share it if several views need it.
    open func observe() -> Observable<CacheState<Cache>> {
        engine.states()
    }

    /// ``observe()``, and a sign-out: `nil` whenever ``requirements`` are set to `nil`, and first
    /// for an observer that subscribes while they are `nil` after that, so a screen never keeps
    /// showing the previous user's data. ``observe()`` keeps Teller-iOS's rule (nothing at all
    /// while no requirements are set) for code ported from it. Delivered on the
    /// ``Teller/uiScheduler``; completes when the repository is deallocated.
    ///
    /// - Returns: An observable of ``CacheState``, or `nil` while signed out.
    open func observeSession() -> Observable<CacheState<Cache>?> {
        engine.sessionStates()
    }

    /// Fetches a fresh first page when the cache is older than
    /// ``TellerDataSource/maxAgeOfCache`` or `force` is true, replacing every page shown.
    /// The work starts when the returned `Single` is subscribed.
    ///
    /// A refresh for a tag that is already being fetched joins that fetch. Each caller gets its
    /// own result. Changing ``requirements`` or releasing the repository answers every waiting
    /// caller `.skipped(reason: .cancelled)`. Disposing one caller's `Single` stops only that
    /// caller's wait (it gets nothing more); the fetch is cancelled when nobody waits for it.
    ///
    /// - Parameter force: Fetch even when the cache is fresh (pull-to-refresh).
    /// - Returns: A `Single` with the outcome; it never fails (failures are
    ///   ``RefreshResult/failedError(error:)``). It succeeds on whatever thread finished the work.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when ``requirements`` is not set.
    open func refresh(force: Bool) throws -> Single<RefreshResult> {
        guard requirements != nil else { throw TellerError.objectPropertiesNotSet(["requirements"]) }
        return engine.refresh(force: force)
    }

    /// Succeeds at once if a cache exists (a first page was fetched successfully before),
    /// otherwise refreshes.
    ///
    /// - Returns: A `Single` with ``RefreshResult/successful`` when a cache exists afterwards.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when ``requirements`` is not set.
    open func refreshIfNoCache() throws -> Single<RefreshResult> {
        guard requirements != nil else { throw TellerError.objectPropertiesNotSet(["requirements"]) }
        return engine.refreshIfNoCache()
    }

    /// Fetches and saves the page after the last one shown: asks the data source for its paging
    /// requirements (with the `nextPageRequirements` the last page returned), fetches it on the
    /// background scheduler, and has the data source append it. The state shows
    /// ``PagedCache/isLoadingNextPage`` meanwhile, then the new page, or
    /// ``PagedCache/nextPageError`` with the pages shown kept (call again to retry).
    ///
    /// Does nothing without ``requirements``, while the last page said no more pages exist, or
    /// while a next page is loading — call it on every scroll to the end; each page is fetched
    /// once. Asked for during a refresh, the page waits for the refresh (see the type's
    /// documentation). Returns at once.
    open func goToNextPage() {
        engine.send(extra: .goToNextPage)
    }
}

import Foundation
import TellerRx

/// Shows one piece of data from its cache and keeps it fresh.
///
/// Give it a ``RepositoryDataSource`` that says how to fetch, save and observe the data, set
/// ``requirements`` to say which data, and ``observe()`` it. Teller then knows whether a cache
/// exists and how old it is, fetches when needed (at most one fetch per tag at a time, shared
/// by every repository of the same ``Teller``), and emits a ``CacheState`` on every change.
///
/// ```swift
/// let repository = TellerRepository(dataSource: ReposDataSource())
/// repository.requirements = ReposDataSource.Requirements(username: "octocat")
/// repository.observe()
///     .subscribe(onNext: { state in render(state) })
///     .disposed(by: disposeBag)
/// ```
///
/// Threads: every member may be called from any thread. States are delivered on the
/// ``Teller/uiScheduler``. When the repository is deallocated its observers complete, its
/// pending refresh callers get `.skipped(reason: .cancelled)`, and its fetches are cancelled
/// unless another repository still waits for them.
open class TellerRepository<DataSource: RepositoryDataSource>: @unchecked Sendable {
    // @unchecked: all mutable state is in the engine's locked mailbox.
    /// The cached data type.
    public typealias Cache = DataSource.Cache

    /// The data source this repository drives.
    public let dataSource: DataSource
    /// The environment this repository runs in.
    public let teller: Teller
    let engine: RepositoryEngine<RepositoryEffects<DataSource>>

    /// Creates a repository for `dataSource` in `teller`'s environment.
    ///
    /// - Parameters:
    ///   - dataSource: How to fetch, save and observe the data.
    ///   - teller: Metadata store, clock, schedulers and logger; ``Teller/shared`` by default.
    public init(dataSource: DataSource, teller: Teller = .shared) {
        self.dataSource = dataSource
        self.teller = teller
        engine = RepositoryEngine(effects: RepositoryEffects(dataSource: dataSource, teller: teller))
    }

    deinit {
        engine.shutDown()
    }

    /// Which data to show. Setting it stops all work for the previous requirements (their
    /// pending refresh callers get `.skipped(reason: .cancelled)`), reads when the new tag was
    /// last fetched, starts observing its cache if the repository is observed, and — with
    /// automatic refresh — starts the first fetch if the tag was never fetched or the cache is too
    /// old. `nil` stops everything.
    open var requirements: DataSource.Requirements? {
        get { engine.requirements }
        set { engine.setRequirements(newValue) }
    }

    /// The cache's state: the current state at once (once ``requirements`` are set), then
    /// every change, delivered on the ``Teller/uiScheduler``. Completes when the repository is
    /// deallocated. Subscribing also triggers an automatic refresh check.
    ///
    /// The cache is read for observers: the first subscription starts the data source's
    /// `observeCache` (the state shows the cache loading until it emits), and when the last one
    /// is disposed Teller stops reading it.
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

    /// Fetches fresh data when the cache is older than ``TellerDataSource/maxAgeOfCache``
    /// or `force` is true. The work starts when the returned `Single` is subscribed.
    ///
    /// A refresh for a tag that is already being fetched joins that fetch. Each caller gets
    /// its own result. Changing ``requirements`` or releasing the repository answers every
    /// waiting caller `.skipped(reason: .cancelled)`. Disposing one caller's `Single` stops
    /// only that caller's wait (it gets nothing more); the fetch is cancelled when nobody
    /// waits for it any more.
    ///
    /// - Parameter force: Fetch even when the cache is fresh (pull-to-refresh).
    /// - Returns: A `Single` with the outcome; it never fails (failures are
    ///   ``RefreshResult/failedError(error:)``). It succeeds on whatever thread finished the work.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when ``requirements`` is not set.
    open func refresh(force: Bool) throws -> Single<RefreshResult> {
        guard requirements != nil else { throw TellerError.objectPropertiesNotSet(["requirements"]) }
        return engine.refresh(force: force)
    }

    /// Succeeds at once if a cache exists (it was fetched successfully before), otherwise
    /// refreshes. Use it when the app cannot work without the data.
    ///
    /// - Returns: A `Single` with ``RefreshResult/successful`` when a cache exists afterwards.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when ``requirements`` is not set.
    open func refreshIfNoCache() throws -> Single<RefreshResult> {
        guard requirements != nil else { throw TellerError.objectPropertiesNotSet(["requirements"]) }
        return engine.refreshIfNoCache()
    }
}

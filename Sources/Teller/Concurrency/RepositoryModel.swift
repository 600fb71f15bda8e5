import Observation
@_spi(TellerInternals) import TellerRx

/// A repository's current ``CacheState`` as an `@Observable` object, for SwiftUI.
///
/// Create it with a ``TellerRepository``, a ``TellerPagingRepository`` or a mock of either; it
/// observes the repository from then on, so its ``state`` is always the latest, and stops when
/// it is released. A SwiftUI view that reads ``state`` in its `body` is updated on every change;
/// outside SwiftUI, `withObservationTracking` tells you about the next change.
///
/// ```swift
/// let model = RepositoryModel(repository: repository)
/// // In a view's body: model.state?.cache, model.state?.isRefreshing …
/// try await model.refresh(force: true)   // pull-to-refresh
/// ```
///
/// Threads: ``state`` changes, and Observation reports the change, on the thread the repository
/// delivers its states on, its ``Teller/uiScheduler``: the main queue with ``Teller/shared``
/// and any `Teller` left on its default UI scheduler, which is what SwiftUI needs. In tests, a
/// `Teller` whose UI scheduler is a `TestScheduler` changes the model while the test advances
/// virtual time, on the test's own thread, so a test can assert each change deterministically.
/// Every member may be called from any thread, and reading ``state`` is thread-safe.
///
/// The model holds the repository, so releasing the model releases a repository that nothing
/// else holds. The repository's ``TellerRepository/requirements`` belong to it. Setting them to
/// `nil` (a sign-out) makes ``state`` `nil` at once: no previous user's data stays on screen.
@Observable
public final class RepositoryModel<Repository: TellerRepositoryProtocol>: @unchecked Sendable {
    // @unchecked: `latest` and `subscription` are thread-safe; the registrar is `Sendable`.

    /// The repository this model observes and refreshes.
    ///
    /// Use it for what the model doesn't forward, e.g. setting ``TellerRepository/requirements``
    /// or calling ``TellerPagingRepository/goToNextPage()`` when a list is scrolled to its end.
    @ObservationIgnored public let repository: Repository

    @ObservationIgnored private let latest = LockedState<CacheState<Repository.Cache>?>(nil)
    @ObservationIgnored private let subscription = SingleAssignmentDisposable()

    /// Creates a model of `repository`'s state and starts observing it.
    ///
    /// Observing also has the repository check whether its cache needs an automatic refresh,
    /// as every ``TellerRepository/observe()`` does.
    ///
    /// - Parameter repository: The repository to show; the model holds it.
    public init(repository: Repository) {
        self.repository = repository
        subscription.setDisposable(
            repository.observeSession().subscribe(onNext: { [weak self] state in self?.publish(state) })
        )
    }

    deinit {
        subscription.dispose()
    }

    /// The repository's latest state, or `nil` until the first one arrives (none arrives while
    /// the repository has no requirements) and again once its requirements are set to `nil`.
    ///
    /// Observable: it changes on the repository's ``Teller/uiScheduler`` (see the type's
    /// documentation), once for every state the repository emits.
    public var state: CacheState<Repository.Cache>? {
        access(keyPath: \.state)
        return latest.withLock { $0 }
    }

    /// Refreshes the repository and waits for the outcome: see
    /// ``TellerRepositoryProtocol/refreshResult(force:)``.
    ///
    /// The refresh shows in ``state`` as it happens (`isRefreshing`, then the new cache or
    /// `refreshError`); the result says what happened to this call. Cancelling the awaiting task
    /// answers `.skipped(reason: .cancelled)` and cancels the fetch when nobody else waits for it.
    ///
    /// ```swift
    /// .refreshable { _ = try? await model.refresh(force: true) }
    /// ```
    ///
    /// - Parameter force: Fetch even when the cache is fresh; pass `true` for pull-to-refresh.
    ///   `false` (the default) fetches only when the cache is too old.
    /// - Returns: The outcome; failed fetches are ``RefreshResult/failedError(error:)``.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when the repository has no
    ///   requirements.
    @discardableResult
    public func refresh(force: Bool = false) async throws -> RefreshResult {
        try await repository.refreshResult(force: force)
    }

    /// Returns ``RefreshResult/successful`` at once if a cache exists, otherwise refreshes and
    /// waits for the outcome: see ``TellerRepositoryProtocol/refreshIfNoCacheResult()``.
    ///
    /// - Returns: ``RefreshResult/successful`` when a cache exists afterwards.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when the repository has no
    ///   requirements.
    @discardableResult
    public func refreshIfNoCache() async throws -> RefreshResult {
        try await repository.refreshIfNoCacheResult()
    }

    /// Stores a state the repository delivered and reports the change to Observation, on the
    /// delivering thread.
    private func publish(_ state: CacheState<Repository.Cache>?) {
        withMutation(keyPath: \.state) {
            latest.withLock { $0 = state }
        }
    }
}

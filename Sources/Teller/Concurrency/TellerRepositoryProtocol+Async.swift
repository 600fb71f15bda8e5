import TellerRx

extension TellerRepositoryProtocol {
    /// The cache's states as an `AsyncSequence`, for `for await` loops: the same states as
    /// ``observe()``, the current one at once (once requirements are set), then every change.
    ///
    /// ```swift
    /// for await state in repository.states {
    ///     render(state)
    /// }
    /// ```
    ///
    /// Each loop observes the repository from its start until it ends, and buffers the states
    /// its body has not taken yet, so none is lost. The loop never throws: it ends when its
    /// task is cancelled (after the states already delivered), when the repository is released,
    /// when the requirements are set to `nil` (a sign-out: no state of the previous user
    /// follows), or when you leave it; each of these stops observing. A loop started while
    /// signed out ends at once; start it again for the next user (SwiftUI's `.task(id:)` with
    /// the requirements does). Before requirements are first set, it waits for them. The states
    /// are produced on the repository's ``Teller/uiScheduler``; the loop body runs wherever the
    /// iterating task runs.
    public var states: CacheStateSequence<Cache> {
        CacheStateSequence(observeSession().take(while: { $0 != nil }).compactMap { $0 })
    }

    /// Refreshes as ``refresh(force:)`` does and waits for the outcome: fetches fresh data when
    /// the cache is older than its `maxAgeOfCache` or `force` is true, joining a fetch of the
    /// same tag already running.
    ///
    /// Named apart from ``refresh(force:)`` on purpose: an `async` overload of that name would
    /// be chosen over the `Single` one in every `async` function, so existing code such as
    /// `let single = try repository.refresh(force: true)` would stop compiling there.
    ///
    /// Cancelling the awaiting task stops this caller's wait at once and answers
    /// `.skipped(reason: .cancelled)`, the answer a caller gets when its refresh is called off;
    /// the fetch itself is cancelled when nobody else waits for it (as when a `Single` from
    /// ``refresh(force:)`` is disposed). The awaiting task resumes on whichever thread finished
    /// the work.
    ///
    /// ```swift
    /// switch try await repository.refreshResult(force: true) {
    /// case .successful: break
    /// case .failedError(let error): show(error)
    /// case .skipped: break   // fresh enough, or cancelled
    /// }
    /// ```
    ///
    /// - Parameter force: Fetch even when the cache is fresh (pull-to-refresh).
    /// - Returns: The outcome; failures of the fetch or the save are
    ///   ``RefreshResult/failedError(error:)``, never thrown.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when no requirements are set.
    @discardableResult
    public func refreshResult(force: Bool) async throws -> RefreshResult {
        await Self.outcome(of: try refresh(force: force))
    }

    /// Returns ``RefreshResult/successful`` at once if a cache exists, otherwise refreshes and
    /// waits for the outcome, as ``refreshIfNoCache()`` does.
    ///
    /// Cancelling the awaiting task answers `.skipped(reason: .cancelled)` and cancels the fetch
    /// when nobody else waits for it, as for ``refreshResult(force:)``, which also says why the
    /// name differs from ``refreshIfNoCache()``.
    ///
    /// - Returns: ``RefreshResult/successful`` when a cache exists afterwards.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when no requirements are set.
    @discardableResult
    public func refreshIfNoCacheResult() async throws -> RefreshResult {
        await Self.outcome(of: try refreshIfNoCache())
    }

    /// Awaits a refresh's `Single`; the cancellation of the awaiting task is a cancelled refresh.
    private static func outcome(of refresh: Single<RefreshResult>) async -> RefreshResult {
        do {
            return try await refresh.value
        } catch is CancellationError {
            // `value` disposed the subscription, which left the fetch.
            return .skipped(reason: .cancelled)
        } catch {
            // A repository's refresh never fails; a stand-in's (a mock's) might.
            return .failedError(error: error)
        }
    }
}

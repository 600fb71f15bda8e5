import Foundation

/// The state observers are shown: a pure function of the machine's state.
extension RepositoryMachine {
    /// The current state, then clears the one-shot flags: they belong to this state only.
    mutating func emit() -> [Action] {
        guard let active else { return [] }
        let fetching = active.flight != nil
        let state: CacheState<Shown>
        if let lastFetched = active.lastFetched {
            var cache: Shown?
            var isLoading = false
            var readError: (any Error)?
            switch active.content {
            case .notRead: isLoading = true
            case .read(let read): cache = read.map(ext.present)
            case .failed(let error): readError = error
            }
            state = CacheState(
                state: .cache(cache: cache, cacheAge: lastFetched),
                requirements: active.requirements,
                isLoadingCache: isLoading,
                isRefreshing: fetching,
                justFinishedFirstFetch: active.oneShot.map { if case .firstFetchSucceeded = $0 { true } else { false } }
                    ?? false,
                justFinishedSuccessfulRefresh: active.oneShot.map {
                    if case .refreshSucceeded = $0 { true } else { false }
                }
                    ?? false,
                refreshError: active.oneShot?.error,
                cacheReadError: readError,
                pendingRetry: active.flight?.pendingRetry
            )
        } else {
            state = CacheState(
                state: .noCache,
                requirements: active.requirements,
                isFirstFetch: fetching,
                errorDuringFirstFetch: active.oneShot?.error,
                pendingRetry: active.flight?.pendingRetry
            )
        }
        self.active?.oneShot = nil
        return [.emit(state)]
    }
}

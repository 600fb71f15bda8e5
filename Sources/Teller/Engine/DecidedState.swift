import Foundation

/// A state the machine decided, before the engine opens it into a ``CacheState`` of the
/// repository's type: the machine is not generic over the app's types, so what observers are
/// shown of the cache stays sealed here.
struct DecidedState {
    /// Whether a cache exists, and what is known of it.
    enum Cache {
        /// Never fetched successfully.
        case none
        /// Fetched at `age`: `shown` is what observers see of it (sealed, `nil` when it is empty),
        /// unless it is still being read or its reading failed.
        case fetched(age: Date, shown: Parcel?, isLoading: Bool, readError: (any Error)?)
    }

    let requirements: any RepositoryRequirements
    let cache: Cache
    /// A flight runs: the first fetch, or a refresh.
    let isFetching: Bool
    /// What just happened, shown on this state only.
    let oneShot: RepositoryMachine.OneShot?
    let pendingRetry: PendingRetry?
    let pendingWrites: [OutboxRecord]
    /// The writes observers see applied: those the server took that no fetch brought back yet,
    /// then the pending ones.
    let shownWrites: [OutboxRecord]
    let writeError: (any Error)?

    var justFinishedFirstFetch: Bool {
        if case .firstFetchSucceeded? = oneShot { true } else { false }
    }

    var justFinishedSuccessfulRefresh: Bool {
        if case .refreshSucceeded? = oneShot { true } else { false }
    }
}

extension CacheState {
    /// The state `decided` describes, its sealed cache opened as `Cache`.
    init(_ decided: DecidedState) {
        let oneShot = decided.oneShot
        switch decided.cache {
        case .none:
            self.init(
                state: .noCache,
                requirements: decided.requirements,
                isFirstFetch: decided.isFetching,
                errorDuringFirstFetch: oneShot?.error,
                pendingRetry: decided.pendingRetry,
                pendingWrites: decided.pendingWrites,
                shownWrites: decided.shownWrites,
                writeError: decided.writeError
            )
        case .fetched(let age, let shown, let isLoading, let readError):
            self.init(
                state: .cache(cache: shown?.open(as: Cache.self), cacheAge: age),
                requirements: decided.requirements,
                isLoadingCache: isLoading,
                isRefreshing: decided.isFetching,
                justFinishedFirstFetch: decided.justFinishedFirstFetch,
                justFinishedSuccessfulRefresh: decided.justFinishedSuccessfulRefresh,
                refreshError: oneShot?.error,
                cacheReadError: readError,
                pendingRetry: decided.pendingRetry,
                pendingWrites: decided.pendingWrites,
                shownWrites: decided.shownWrites,
                writeError: decided.writeError
            )
        }
    }
}

extension CacheState {
    /// The state with `apply` run on its cache and requirements, when writes are to be shown and
    /// a cache was read (not while it loads, failed to read, or was never fetched: there is no
    /// base to show them on). Every other state passes as it is, at the cost of a few checks.
    func applyingPendingWrites(_ apply: (Cache?, any RepositoryRequirements) -> Cache?) -> CacheState {
        guard !shownWrites.isEmpty, cacheExists, !isLoadingCache, cacheReadError == nil,
            let requirements
        else { return self }
        return convert { apply($0, requirements) }
    }
}

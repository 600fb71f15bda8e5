import Foundation

/// The state observers are shown: a pure function of the machine's state.
extension RepositoryMachine {
    /// The current state, then clears the one-shot flags: they belong to this state only.
    mutating func emit() -> [Action] {
        guard let active else { return [] }
        let cache: DecidedState.Cache
        if let lastFetched = active.lastFetched {
            switch active.content {
            case .notRead:
                cache = .fetched(age: lastFetched, shown: nil, isLoading: true, readError: nil)
            case .read(let read):
                cache = .fetched(age: lastFetched, shown: read.map(ext.present), isLoading: false, readError: nil)
            case .failed(let error):
                cache = .fetched(age: lastFetched, shown: nil, isLoading: false, readError: error)
            }
        } else {
            cache = .none
        }
        let state = DecidedState(
            requirements: active.requirements,
            cache: cache,
            isFetching: active.flight != nil,
            oneShot: active.oneShot,
            pendingRetry: active.flight?.pendingRetry,
            pendingWrites: active.pendingWrites,
            shownWrites: active.takenWrites + active.pendingWrites,
            writeError: active.writeError
        )
        self.active?.oneShot = nil
        return [.emit(state)]
    }
}

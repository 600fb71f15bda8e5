/// Holds one disposable that is set once, possibly after `dispose()` was already called.
///
/// If it is disposed before the inner disposable is set, the inner one is disposed as soon as
/// it is set. Setting it twice is a programming error and is reported, not obeyed: the second
/// disposable is disposed at once.
public final class SingleAssignmentDisposable: Cancelable {
    private enum State {
        case empty
        case assigned(any Disposable)
        case disposed
    }

    private let state = LockedState(State.empty)

    /// Creates an empty disposable.
    public init() {}

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { if case .disposed = $0 { true } else { false } }
    }

    /// Sets the inner disposable. Call once.
    ///
    /// - Parameter disposable: Disposed at once if this is already disposed.
    public func setDisposable(_ disposable: any Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            switch state {
            case .empty:
                state = .assigned(disposable)
                return false
            case .assigned:
                reportMisuse("SingleAssignmentDisposable.setDisposable called twice; disposing the second one.")
                return true
            case .disposed:
                return true
            }
        }
        if disposeNow { disposable.dispose() }
    }

    /// Disposes the inner disposable, now or when it is set. Safe from any thread.
    public func dispose() {
        let inner = state.withLock { state -> (any Disposable)? in
            defer { state = .disposed }
            if case .assigned(let inner) = state { return inner }
            return nil
        }
        inner?.dispose()
    }
}

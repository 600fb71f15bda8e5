/// Disposes an underlying disposable only once it has been disposed itself *and* every
/// dependent disposable handed out by ``retain()`` has been disposed.
///
/// Use it when several consumers share one resource and the owner wants to release it, but
/// only after the last consumer is done. Everything is safe from any thread; the underlying
/// disposable is disposed on the thread that makes the last of those calls.
///
/// ```swift
/// let shared = RefCountDisposable(disposable: Disposables.create { print("released") })
/// let consumer = shared.retain()
/// shared.dispose()     // nothing yet: `consumer` still holds it
/// consumer.dispose()
/// // Prints: released
/// ```
public final class RefCountDisposable: Cancelable {
    private struct State {
        var disposable: (any Disposable)?
        var isPrimaryDisposed = false
        var count = 0
    }

    private let state: LockedState<State>

    /// Creates a reference-counted wrapper around `disposable`.
    ///
    /// - Parameter disposable: Disposed once this object and all its dependents are disposed.
    public init(disposable: any Disposable) {
        state = LockedState(State(disposable: disposable))
    }

    /// Whether the underlying disposable has been disposed.
    public var isDisposed: Bool {
        state.withLock { $0.disposable == nil }
    }

    /// Hands out a dependent disposable that keeps the underlying one alive until it is disposed.
    ///
    /// Disposing the dependent more than once counts once. After the underlying disposable has
    /// been disposed, this returns a disposable that does nothing.
    ///
    /// - Returns: The dependent disposable.
    public func retain() -> any Disposable {
        let retained = state.withLock { state -> Bool in
            guard state.disposable != nil else { return false }
            state.count += 1
            return true
        }
        return retained ? RefCountInnerDisposable(parent: self) : Disposables.create()
    }

    /// Marks this owner's reference as released; disposes the underlying disposable now if no
    /// dependent is outstanding, or else when the last one is disposed. Only the first call acts.
    public func dispose() {
        let toDispose = state.withLock { state -> (any Disposable)? in
            guard state.disposable != nil, !state.isPrimaryDisposed else { return nil }
            state.isPrimaryDisposed = true
            guard state.count == 0 else { return nil }
            return state.disposable.take()
        }
        toDispose?.dispose()
    }

    fileprivate func release() {
        let toDispose = state.withLock { state -> (any Disposable)? in
            guard state.disposable != nil else { return nil }
            precondition(state.count > 0, "RefCountDisposable released more often than retained")
            state.count -= 1
            guard state.isPrimaryDisposed, state.count == 0 else { return nil }
            return state.disposable.take()
        }
        toDispose?.dispose()
    }
}

/// A dependent of a ``RefCountDisposable``: releases its reference on the first `dispose()`.
private final class RefCountInnerDisposable: Disposable {
    private let parent: RefCountDisposable
    private let isDisposed = LockedState(false)

    init(parent: RefCountDisposable) {
        self.parent = parent
    }

    func dispose() {
        let first = isDisposed.withLock { isDisposed -> Bool in
            defer { isDisposed = true }
            return !isDisposed
        }
        if first { parent.release() }
    }
}

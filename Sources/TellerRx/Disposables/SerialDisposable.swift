/// Holds one replaceable disposable: setting a new one disposes the previous one.
///
/// Once this is disposed, any disposable set afterwards is disposed at once.
public final class SerialDisposable: Cancelable {
    private struct State {
        var current: (any Disposable)?
        var isDisposed = false
    }

    private let state = LockedState(State())

    /// Creates an empty serial disposable.
    public init() {}

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// The current inner disposable. Setting it disposes the previous one (on the setting thread),
    /// or disposes the new one at once if this is already disposed.
    public var disposable: any Disposable {
        get {
            state.withLock { $0.current } ?? Disposables.create()
        }
        set {
            let toDispose = state.withLock { state -> (any Disposable)? in
                if state.isDisposed { return newValue }
                defer { state.current = newValue }
                return state.current
            }
            toDispose?.dispose()
        }
    }

    /// Disposes the current inner disposable and every later one. Safe from any thread.
    public func dispose() {
        let current = state.withLock { state -> (any Disposable)? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}

/// Collects disposables and disposes them all when the bag is deallocated.
///
/// Keep a bag as a property of the object whose lifetime the subscriptions should share.
/// To dispose early, replace the bag with a new one. Adding to a bag is thread-safe.
public final class DisposeBag: Sendable {
    private struct State {
        var disposables: [any Disposable] = []
        var isDisposed = false
    }

    private let state = LockedState(State())

    /// Creates an empty bag.
    public init() {}

    /// Adds `disposable` to the bag.
    ///
    /// - Parameter disposable: Disposed when the bag is deallocated.
    public func insert(_ disposable: any Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.disposables.append(disposable)
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    private func dispose() {
        let disposables = state.withLock { state -> [any Disposable] in
            defer {
                state.disposables = []
                state.isDisposed = true
            }
            return state.disposables
        }
        for disposable in disposables {
            disposable.dispose()
        }
    }

    deinit {
        dispose()
    }
}

extension Disposable {
    /// Adds this disposable to `bag`, to be disposed when the bag is deallocated.
    ///
    /// - Parameter bag: The bag that owns this subscription.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}

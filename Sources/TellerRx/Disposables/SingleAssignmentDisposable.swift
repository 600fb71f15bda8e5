/// Holds one disposable that is set once, possibly after `dispose()` was already called.
///
/// If it is disposed before the inner disposable is set, the inner one is disposed as soon as
/// it is set. Setting it twice is a programming error and is reported, not obeyed: the second
/// disposable is disposed at once. Lock-free: the same "set once / disposed" protocol every
/// operator uses for its upstream subscription (an internal `SubscriptionSlot`).
public final class SingleAssignmentDisposable: Cancelable {
    private let slot = SubscriptionSlot()

    /// Creates an empty disposable.
    public init() {}

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        slot.isDisposedFromOutside
    }

    /// Sets the inner disposable. Call once.
    ///
    /// - Parameter disposable: Disposed at once if this is already disposed.
    public func setDisposable(_ disposable: any Disposable) {
        guard slot.claimAssignment() else {
            reportMisuse("SingleAssignmentDisposable.setDisposable called twice; disposing the second one.")
            disposable.dispose()
            return
        }
        slot.setSubscription(disposable)
    }

    /// Disposes the inner disposable, now or when it is set. Safe from any thread.
    public func dispose() {
        slot.dispose()
    }
}

import Synchronization

/// A disposable that only records whether it has been disposed.
public final class BooleanDisposable: Cancelable {
    /// A shared disposable that is already disposed.
    public static let booleanDisposableTrue = BooleanDisposable(isDisposed: true)

    private let disposed: Atomic<Bool>

    /// Creates a disposable that is not yet disposed.
    public init() {
        disposed = Atomic(false)
    }

    /// Creates a disposable in the given state.
    ///
    /// - Parameter isDisposed: Whether it starts out disposed.
    public init(isDisposed: Bool) {
        disposed = Atomic(isDisposed)
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    /// Marks this disposable as disposed. Safe from any thread.
    public func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}

/// A disposable that only records whether it has been disposed.
public final class BooleanDisposable: Cancelable {
    /// A shared disposable that is already disposed.
    public static let booleanDisposableTrue = BooleanDisposable(isDisposed: true)

    private let disposed: AtomicState<Bool>

    /// Creates a disposable that is not yet disposed.
    public init() {
        disposed = AtomicState(false)
    }

    /// Creates a disposable in the given state.
    ///
    /// - Parameter isDisposed: Whether it starts out disposed.
    public init(isDisposed: Bool) {
        disposed = AtomicState(isDisposed)
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        disposed.isSet
    }

    /// Marks this disposable as disposed. Safe from any thread.
    public func dispose() {
        disposed.set()
    }
}

/// Factories for the common kinds of ``Disposable``.
public enum Disposables {
    /// A disposable that does nothing when disposed.
    ///
    /// - Returns: A shared no-op disposable.
    public static func create() -> any Disposable {
        NopDisposable.instance
    }

    /// A disposable that runs `action` the first time it is disposed.
    ///
    /// - Parameter action: Runs once, on the thread that first calls `dispose()`.
    /// - Returns: A ``Cancelable`` that runs `action` on its first `dispose()`.
    public static func create(with action: @escaping @Sendable () -> Void) -> any Cancelable {
        AnonymousDisposable(action)
    }

    /// A disposable that disposes both `disposable1` and `disposable2`, once.
    ///
    /// - Returns: A ``Cancelable`` that disposes both on its first `dispose()`.
    public static func create(_ disposable1: any Disposable, _ disposable2: any Disposable) -> any Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes all three disposables, once.
    ///
    /// - Returns: A ``Cancelable`` that disposes all of them on its first `dispose()`.
    public static func create(
        _ disposable1: any Disposable,
        _ disposable2: any Disposable,
        _ disposable3: any Disposable
    ) -> any Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes every disposable in `disposables`, once.
    ///
    /// - Returns: A ``Cancelable`` that disposes all of them on its first `dispose()`.
    public static func create(_ disposables: [any Disposable]) -> any Cancelable {
        switch disposables.count {
        case 2: BinaryDisposable(disposables[0], disposables[1])
        default: CompositeDisposable(disposables: disposables)
        }
    }
}

/// Does nothing; shared.
struct NopDisposable: Disposable {
    static let instance: any Disposable = NopDisposable()

    func dispose() {}
}

/// Runs an action on the first `dispose()`, then lets it go.
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    // @unchecked: `action` is written in init and then read and cleared only by the one thread
    // that wins the `disposed` exchange.
    private let disposed = AtomicState(false)
    private var action: (@Sendable () -> Void)?

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    var isDisposed: Bool {
        disposed.isSet
    }

    func dispose() {
        guard disposed.set() else { return }
        let action = self.action
        self.action = nil
        action?()
    }
}

/// Disposes two disposables on the first `dispose()`, then lets them go.
final class BinaryDisposable: Cancelable, @unchecked Sendable {
    // @unchecked: the two references are written in init and then read and cleared only by the
    // one thread that wins the `disposed` exchange.
    private let disposed = AtomicState(false)
    private var first: (any Disposable)?
    private var second: (any Disposable)?

    init(_ first: any Disposable, _ second: any Disposable) {
        self.first = first
        self.second = second
    }

    var isDisposed: Bool {
        disposed.isSet
    }

    func dispose() {
        guard disposed.set() else { return }
        let first = self.first
        let second = self.second
        self.first = nil
        self.second = nil
        first?.dispose()
        second?.dispose()
    }
}

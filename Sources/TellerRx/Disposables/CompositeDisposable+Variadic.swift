extension CompositeDisposable {
    /// Creates a group holding four or more disposables, in argument order.
    ///
    /// - Parameters:
    ///   - disposable1: The first member.
    ///   - disposable2: The second member.
    ///   - disposable3: The third member.
    ///   - disposable4: The fourth member.
    ///   - disposables: Any further members.
    public convenience init(
        _ disposable1: any Disposable,
        _ disposable2: any Disposable,
        _ disposable3: any Disposable,
        _ disposable4: any Disposable,
        _ disposables: any Disposable...
    ) {
        self.init(disposables: [disposable1, disposable2, disposable3, disposable4] + disposables)
    }
}

extension Disposables {
    /// A disposable that disposes every one of the given disposables, once, in argument order.
    ///
    /// `dispose()` is safe from any thread; the members are disposed on the thread of the first
    /// call, and later calls do nothing.
    ///
    /// - Parameters:
    ///   - disposable1: The first member.
    ///   - disposable2: The second member.
    ///   - disposable3: The third member.
    ///   - disposables: Any further members.
    /// - Returns: A ``Cancelable`` that disposes all of them on its first `dispose()`.
    public static func create(
        _ disposable1: any Disposable,
        _ disposable2: any Disposable,
        _ disposable3: any Disposable,
        _ disposables: any Disposable...
    ) -> any Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }
}

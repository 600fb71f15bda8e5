extension ObservableType {
    /// Subscribes closures that receive `object` along with each event, without keeping
    /// `object` alive: RxSwift 6's replacement for `[weak self]` in `subscribe`.
    ///
    /// `object` is held weakly. Each closure is called with it only while it is alive; once it
    /// has been deallocated, the closures are skipped (the subscription itself goes on until it
    /// is disposed, so keep it in the object's `DisposeBag`). The closures run on the thread that
    /// delivers each event, as in ``subscribe(onNext:onError:onCompleted:onDisposed:)``, and an
    /// error with no `onError` handler goes to ``Hooks/defaultErrorHandler``.
    ///
    /// `Object` must be `Sendable`, because the closures may run on any thread: a main-actor
    /// class such as a view controller qualifies.
    ///
    /// ```swift
    /// viewModel.title
    ///     .observe(on: MainScheduler.instance)
    ///     .subscribe(with: self, onNext: { owner, title in owner.show(title) })
    ///     .disposed(by: disposeBag)
    /// ```
    ///
    /// - Parameters:
    ///   - object: The object passed to the closures, held weakly.
    ///   - onNext: Called for each element while `object` is alive.
    ///   - onError: Called once if the sequence fails while `object` is alive.
    ///   - onCompleted: Called once if the sequence completes while `object` is alive.
    ///   - onDisposed: Called once when the subscription ends, if `object` is alive then.
    /// - Returns: A disposable that ends the subscription.
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        onNext: (@Sendable (Object, Element) -> Void)? = nil,
        onError: (@Sendable (Object, any Error) -> Void)? = nil,
        onCompleted: (@Sendable (Object) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        // Only the closures given are wrapped, so a missing `onError` still reports the error
        // and a bare `onNext` keeps the plain subscription's fast path.
        subscribe(
            onNext: weaklyBound(object, onNext),
            onError: weaklyBound(object, onError),
            onCompleted: weaklyBound(object, onCompleted),
            onDisposed: weaklyBound(object, onDisposed)
        )
    }
}

/// `body` with `object` bound weakly as its first argument: skipped once `object` is gone.
func weaklyBound<Object: AnyObject & Sendable>(
    _ object: Object,
    _ body: (@Sendable (Object) -> Void)?
) -> (@Sendable () -> Void)? {
    guard let body else { return nil }
    return { [weak object] in
        if let object { body(object) }
    }
}

/// `body` with `object` bound weakly as its first argument: skipped once `object` is gone.
func weaklyBound<Object: AnyObject & Sendable, Argument>(
    _ object: Object,
    _ body: (@Sendable (Object, Argument) -> Void)?
) -> (@Sendable (Argument) -> Void)? {
    guard let body else { return nil }
    return { [weak object] argument in
        if let object { body(object, argument) }
    }
}

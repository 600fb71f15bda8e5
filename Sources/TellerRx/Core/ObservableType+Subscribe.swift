extension ObservableType {
    /// Subscribes a closure that receives every event.
    ///
    /// - Parameter on: Called serially, on the thread that delivers each event.
    /// - Returns: A disposable that ends the subscription.
    public func subscribe(_ on: @escaping @Sendable (Event<Element>) -> Void) -> any Disposable {
        asObservable().subscribe(AnonymousObserver(on))
    }

    /// Subscribes closures for elements, errors, completion and disposal.
    ///
    /// The closures run on the thread that delivers each event. An error with no `onError`
    /// handler goes to ``Hooks/defaultErrorHandler`` (which prints it on standard error in
    /// debug builds). `onDisposed` runs once, after the
    /// sequence ends or when the subscription is disposed, whichever comes first.
    ///
    /// - Parameters:
    ///   - onNext: Called for each element.
    ///   - onError: Called once if the sequence fails.
    ///   - onCompleted: Called once if the sequence completes.
    ///   - onDisposed: Called once when the subscription ends for any reason.
    /// - Returns: A disposable that ends the subscription.
    @inlinable
    public func subscribe(
        onNext: (@Sendable (Element) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        // The common `subscribe(onNext:)`, with a smaller observer (48 heap bytes, not 96).
        // Inlined so the observer is created with the caller's concrete element type: in
        // generic code its type metadata is a run-time lookup on every subscribe.
        if onError == nil && onCompleted == nil && onDisposed == nil && !Hooks.recordCallStackOnError {
            return asObservable().subscribe(NextObserver(onNext))
        }
        return subscribeWithCallbacks(
            onNext: onNext,
            onError: onError,
            onCompleted: onCompleted,
            onDisposed: onDisposed
        )
    }

    /// ``subscribe(onNext:onError:onCompleted:onDisposed:)`` with any closure but `onNext`, or
    /// with call stacks recorded for unhandled errors.
    @usableFromInline
    func subscribeWithCallbacks(
        onNext: (@Sendable (Element) -> Void)?,
        onError: (@Sendable (any Error) -> Void)?,
        onCompleted: (@Sendable () -> Void)?,
        onDisposed: (@Sendable () -> Void)?
    ) -> any Disposable {
        let onError = Hooks.recordingCallStack(unless: onError)
        guard let onDisposed else {
            if onError == nil && onCompleted == nil {
                return asObservable().subscribe(NextObserver(onNext))
            }
            let observer = CallbackObserver(onNext: onNext, onError: onError, onCompleted: onCompleted, onEnd: nil)
            return asObservable().subscribe(observer)
        }
        let disposeAction = AnonymousDisposable(onDisposed)
        let observer = CallbackObserver(
            onNext: onNext,
            onError: onError,
            onCompleted: onCompleted,
            onEnd: disposeAction
        )
        return BinaryDisposable(asObservable().subscribe(observer), disposeAction)
    }

    /// Subscribes and ignores every event: useful to start the side effects of a sequence.
    ///
    /// - Returns: A disposable that ends the subscription.
    public func subscribe() -> any Disposable {
        subscribe(onNext: nil)
    }
}

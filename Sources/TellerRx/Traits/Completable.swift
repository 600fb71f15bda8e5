/// The trait of a ``Completable``: no element; completion or an error.
public enum CompletableTrait {}

/// A sequence that produces no element and only says whether the work succeeded: the shape of
/// a save or a delete.
///
/// Its observable form is `completed` or `error`.
public typealias Completable = PrimitiveSequence<CompletableTrait, Never>

/// The outcome of a ``Completable``.
@frozen
public enum CompletableEvent: Sendable {
    /// The completable failed (the observable sends `error`).
    case error(any Error)
    /// The completable succeeded (the observable sends `completed`).
    case completed
}

extension CompletableEvent: CustomDebugStringConvertible {
    /// A description such as `error(SomeError)` or `completed`.
    public var debugDescription: String {
        switch self {
        case .error(let error): "error(\(error))"
        case .completed: "completed"
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// The callback a `Completable.create` closure calls, once, with the outcome. It may be
    /// called from any thread.
    public typealias CompletableObserver = @Sendable (CompletableEvent) -> Void

    /// Creates a ``Completable`` from a subscribe function.
    ///
    /// `subscribe` runs once per subscription, on the subscribing thread. Call the given
    /// observer once, from any thread, with `.completed` or `.error`; return a disposable that
    /// cancels the work. Only the first call counts: later ones are dropped (and reported in
    /// debug builds). The closure may capture non-`Sendable` values.
    ///
    /// - Parameter subscribe: Starts the work for one subscriber.
    /// - Returns: A completable that runs `subscribe` for each subscriber.
    public static func create(
        subscribe: @escaping (@escaping CompletableObserver) -> any Disposable
    ) -> Completable {
        Completable(raw: TraitCreateProducer<CompletableEvent>(subscribe))
    }

    /// Subscribes a closure that receives the outcome of this completable, once.
    ///
    /// - Parameter observer: Called once, on the thread that delivers the outcome.
    /// - Returns: A disposable that cancels the subscription.
    public func subscribe(_ observer: @escaping @Sendable (CompletableEvent) -> Void) -> any Disposable {
        primitiveSequence.source.subscribe(TraitSubscribeObserver(observer))
    }

    /// Subscribes closures for the completion, the error and the end of the subscription.
    ///
    /// The closures run on the thread that delivers the outcome. An error with no `onError`
    /// handler goes to ``Hooks/defaultErrorHandler``. `onDisposed` runs once, after
    /// the outcome or when the subscription is disposed, whichever comes first.
    ///
    /// - Parameters:
    ///   - onCompleted: Called when the work succeeds.
    ///   - onError: Called with the error.
    ///   - onDisposed: Called once when the subscription ends for any reason.
    /// - Returns: A disposable that cancels the subscription.
    public func subscribe(
        onCompleted: (@Sendable () -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        let onError = Hooks.recordingCallStack(unless: onError)
        let disposeAction = onDisposed.map(AnonymousDisposable.init)
        let observer = TraitSubscribeObserver<CompletableEvent> { event in
            switch event {
            case .completed:
                onCompleted?()
            case .error(let error):
                if let onError {
                    onError(error)
                } else {
                    Hooks.reportUnhandledError(error)
                }
            }
            disposeAction?.dispose()
        }
        let subscription = primitiveSequence.source.subscribe(observer)
        guard let disposeAction else { return subscription }
        return BinaryDisposable(subscription, disposeAction)
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// A completable that fails at once, on the subscribing thread, with `error`.
    ///
    /// - Parameter error: The error to deliver.
    /// - Returns: A failing completable.
    public static func error(_ error: any Error) -> Completable {
        Completable(raw: Observable.error(error))
    }

    /// A completable that never ends.
    ///
    /// - Returns: A silent completable; its subscriptions hold nothing.
    public static func never() -> Completable {
        Completable(raw: Observable.never())
    }

    /// A completable that completes at once, on the subscribing thread.
    ///
    /// - Returns: A completable that has already succeeded.
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }
}

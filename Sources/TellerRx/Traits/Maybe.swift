/// The trait of a ``Maybe``: at most one element, or an error.
public enum MaybeTrait: SingleOrMaybeTrait {}

/// A sequence that produces at most one element, then ends; or fails.
///
/// Its observable form is `next(element)` followed at once by `completed`, `completed`
/// alone, or `error`.
public typealias Maybe<Element: Sendable> = PrimitiveSequence<MaybeTrait, Element>

/// The outcome of a ``Maybe``.
@frozen
public enum MaybeEvent<Element> {
    /// The maybe produced its element (the observable sends `next` then `completed`).
    case success(Element)
    /// The maybe failed (the observable sends `error`).
    case error(any Error)
    /// The maybe ended without an element (the observable sends `completed`).
    case completed
}

extension MaybeEvent: Sendable where Element: Sendable {}

extension MaybeEvent: CustomDebugStringConvertible {
    /// A description such as `success(1)`, `error(SomeError)` or `completed`.
    public var debugDescription: String {
        switch self {
        case .success(let element): "success(\(element))"
        case .error(let error): "error(\(error))"
        case .completed: "completed"
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The callback a `Maybe.create` closure calls, once, with the outcome. It may be called
    /// from any thread.
    public typealias MaybeObserver = @Sendable (MaybeEvent<Element>) -> Void

    /// Creates a ``Maybe`` from a subscribe function.
    ///
    /// `subscribe` runs once per subscription, on the subscribing thread. Call the given
    /// observer once, from any thread, with `.success`, `.completed` or `.error`; return a
    /// disposable that cancels the work. Only the first call counts: later ones are dropped
    /// (and reported in debug builds). The closure may capture non-`Sendable` values.
    ///
    /// - Parameter subscribe: Starts the work for one subscriber.
    /// - Returns: A maybe that runs `subscribe` for each subscriber.
    public static func create(
        subscribe: @escaping (@escaping MaybeObserver) -> any Disposable
    ) -> Maybe<Element> {
        Maybe(raw: TraitCreateProducer<MaybeEvent<Element>>(subscribe))
    }

    /// Subscribes a closure that receives the outcome of this maybe, once.
    ///
    /// - Parameter observer: Called once, on the thread that delivers the outcome.
    /// - Returns: A disposable that cancels the subscription.
    public func subscribe(_ observer: @escaping @Sendable (MaybeEvent<Element>) -> Void) -> any Disposable {
        primitiveSequence.source.subscribe(TraitSubscribeObserver(observer))
    }

    /// Subscribes closures for the element, the error, the empty completion and the end of
    /// the subscription.
    ///
    /// The closures run on the thread that delivers the outcome; exactly one of `onSuccess`,
    /// `onError` and `onCompleted` is called (`onCompleted` only when there is no element).
    /// An error with no `onError` handler goes to ``Hooks/defaultErrorHandler``.
    /// `onDisposed` runs once, after the outcome or when the subscription is disposed.
    ///
    /// - Parameters:
    ///   - onSuccess: Called with the element.
    ///   - onError: Called with the error.
    ///   - onCompleted: Called when the maybe ends without an element.
    ///   - onDisposed: Called once when the subscription ends for any reason.
    /// - Returns: A disposable that cancels the subscription.
    public func subscribe(
        onSuccess: (@Sendable (Element) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        let onError = Hooks.recordingCallStack(unless: onError)
        let disposeAction = onDisposed.map(AnonymousDisposable.init)
        let observer = TraitSubscribeObserver<MaybeEvent<Element>> { event in
            switch event {
            case .success(let element):
                onSuccess?(element)
            case .error(let error):
                if let onError {
                    onError(error)
                } else {
                    Hooks.reportUnhandledError(error)
                }
            case .completed:
                onCompleted?()
            }
            disposeAction?.dispose()
        }
        let subscription = primitiveSequence.source.subscribe(observer)
        guard let disposeAction else { return subscription }
        return BinaryDisposable(subscription, disposeAction)
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// A maybe that succeeds with `element` at once, on the subscribing thread.
    ///
    /// - Parameter element: The element to deliver.
    /// - Returns: A maybe of `element`.
    public static func just(_ element: Element) -> Maybe<Element> {
        Maybe(raw: Observable.just(element))
    }

    /// A maybe that succeeds with `element` on `scheduler`.
    ///
    /// - Parameters:
    ///   - element: The element to deliver.
    ///   - scheduler: Where the success is delivered.
    /// - Returns: A maybe of `element`.
    public static func just(_ element: Element, scheduler: any ImmediateSchedulerType) -> Maybe<Element> {
        Maybe(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A maybe that fails at once, on the subscribing thread, with `error`.
    ///
    /// - Parameter error: The error to deliver.
    /// - Returns: A failing maybe.
    public static func error(_ error: any Error) -> Maybe<Element> {
        Maybe(raw: Observable.error(error))
    }

    /// A maybe that never delivers an outcome.
    ///
    /// - Returns: A silent maybe; its subscriptions hold nothing.
    public static func never() -> Maybe<Element> {
        Maybe(raw: Observable.never())
    }

    /// A maybe that completes at once, on the subscribing thread, without an element.
    ///
    /// - Returns: An empty maybe.
    public static func empty() -> Maybe<Element> {
        Maybe(raw: Observable.empty())
    }
}

/// The trait of a ``Single``: exactly one element, or an error.
public enum SingleTrait: SingleOrMaybeTrait {}

/// A sequence that produces exactly one element or fails: the shape of a network request.
///
/// Its observable form is `next(element)` followed at once by `completed`, or `error`.
///
/// ```swift
/// let answer = Single<Int>.create { single in
///     single(.success(42))
///     return Disposables.create()
/// }
/// answer.subscribe(onSuccess: { print($0) })
/// // Prints: 42
/// ```
public typealias Single<Element: Sendable> = PrimitiveSequence<SingleTrait, Element>

/// The outcome of a ``Single``: `.success(element)` or `.failure(error)`.
public typealias SingleEvent<Element> = Result<Element, any Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The callback a `Single.create` closure calls, once, with the outcome. It may be called
    /// from any thread.
    public typealias SingleObserver = @Sendable (SingleEvent<Element>) -> Void

    /// Creates a ``Single`` from a subscribe function.
    ///
    /// `subscribe` runs once per subscription, on the subscribing thread. Call the given
    /// observer once, from any thread, with `.success` or `.failure`; return a disposable that
    /// cancels the work. Only the first call counts: later ones are dropped (and reported in
    /// debug builds). The closure is not required to be `@Sendable`, so it may capture
    /// non-`Sendable` values such as a data source and its requirements.
    ///
    /// ```swift
    /// func fetch(_ id: Int) -> Single<String> {
    ///     Single.create { single in
    ///         let task = api.load(id) { result in single(result) }
    ///         return Disposables.create { task.cancel() }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter subscribe: Starts the work for one subscriber.
    /// - Returns: A single that runs `subscribe` for each subscriber.
    @inlinable
    public static func create(
        subscribe: @escaping (@escaping SingleObserver) -> any Disposable
    ) -> Single<Element> {
        // Inlinable, so the producer is created with the concrete element type (no metadata
        // lookup at run time).
        Single(raw: SingleCreateProducer(subscribe))
    }

    /// Subscribes a closure that receives the outcome of this single, once.
    ///
    /// - Parameter observer: Called once, on the thread that delivers the outcome.
    /// - Returns: A disposable that cancels the subscription.
    @inlinable
    public func subscribe(_ observer: @escaping @Sendable (SingleEvent<Element>) -> Void) -> any Disposable {
        subscribe(onSuccess: { observer(.success($0)) }, onFailure: { observer(.failure($0)) })
    }

    /// Subscribes closures for the success, the failure and the end of the subscription.
    ///
    /// The closures run on the thread that delivers the outcome. A failure with no `onFailure`
    /// handler goes to ``Hooks/defaultErrorHandler`` (which prints it on standard error in
    /// debug builds). `onDisposed` runs once, after
    /// the outcome or when the subscription is disposed, whichever comes first.
    ///
    /// - Parameters:
    ///   - onSuccess: Called with the element.
    ///   - onFailure: Called with the error.
    ///   - onDisposed: Called once when the subscription ends for any reason.
    /// - Returns: A disposable that cancels the subscription.
    @inlinable
    public func subscribe(
        onSuccess: (@Sendable (Element) -> Void)? = nil,
        onFailure: (@Sendable (any Error) -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        // Inlinable, so the observer and the callback below are compiled with the concrete
        // element type: unspecialized generic code looks up type metadata on every call.
        let observer = SingleCallbackObserver(
            onSuccess: onSuccess,
            onFailure: Hooks.recordingCallStack(unless: onFailure),
            onDisposed: onDisposed
        )
        let source = primitiveSequence.source
        if let created = source as? SingleCreateProducer<Element> {
            // A created single needs no sink: the observer enforces the one-outcome grammar and
            // is the subscription, so the closure's callback reaches it directly.
            observer.setUpstream(created.subscribeHandler { event in observer.receive(event) })
        } else {
            observer.setUpstream(source.subscribe(observer))
        }
        return observer
    }

    /// Subscribes closures for the success, the error and the end of the subscription: the
    /// RxSwift 5 spelling of ``subscribe(onSuccess:onFailure:onDisposed:)``.
    ///
    /// - Parameters:
    ///   - onSuccess: Called with the element, on the delivering thread.
    ///   - onError: Called with the error, on the delivering thread.
    ///   - onDisposed: Called once when the subscription ends for any reason.
    /// - Returns: A disposable that cancels the subscription.
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: (@Sendable (Element) -> Void)? = nil,
        onError: @escaping @Sendable (any Error) -> Void,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A single that succeeds with `element` at once, on the subscribing thread.
    ///
    /// - Parameter element: The element to deliver.
    /// - Returns: A single of `element`.
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: Observable.just(element))
    }

    /// A single that succeeds with `element` on `scheduler`.
    ///
    /// - Parameters:
    ///   - element: The element to deliver.
    ///   - scheduler: Where the success is delivered.
    /// - Returns: A single of `element`.
    public static func just(_ element: Element, scheduler: any ImmediateSchedulerType) -> Single<Element> {
        Single(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A single that fails at once, on the subscribing thread, with `error`.
    ///
    /// - Parameter error: The error to deliver.
    /// - Returns: A failing single.
    public static func error(_ error: any Error) -> Single<Element> {
        Single(raw: Observable.error(error))
    }

    /// A single that never delivers an outcome.
    ///
    /// - Returns: A silent single; its subscriptions hold nothing.
    public static func never() -> Single<Element> {
        Single(raw: Observable.never())
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// This single as a ``Maybe`` that always has an element.
    ///
    /// - Returns: A maybe with the same outcome.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source)
    }

    /// This single as a ``Completable`` that ignores the element.
    ///
    /// - Returns: A completable that completes when the single succeeds and fails when it fails.
    public func asCompletable() -> Completable {
        primitiveSequence.source.ignoreElements().asCompletable()
    }
}

// The side-effect operators of the traits, `do` and `debug`: thin wrappers over the observable
// operators, with each trait's names for its events.

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Runs side effects around the outcome of this single and around subscription and
    /// disposal, passing the outcome through unchanged.
    ///
    /// Behaves as the observable `do`, with the element named a success: `onSuccess` and `onError`
    /// run just before the outcome is delivered, `afterSuccess` and `afterError` just after, all on
    /// the thread that delivers it. `onSubscribe` runs on the subscribing thread before the single
    /// is subscribed, `onSubscribed` after; `onDispose` runs once, after the single's subscription
    /// is disposed (because it ended or because the subscriber disposed it).
    ///
    /// If `onSuccess` or `onError` throws, the single fails with that error instead. If
    /// `afterSuccess` throws, the success has already been delivered: the error replaces the
    /// completion that follows it in the observable form, and a single's subscriber does not see
    /// it. If `afterError` throws, the single has already failed: the error is dropped (and
    /// reported in debug builds).
    ///
    /// ```swift
    /// fetchUser()
    ///     .do(onSuccess: { cache.store($0) }, onError: { log($0) })
    ///     .subscribe(onSuccess: { show($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - onSuccess: Runs before the element is delivered.
    ///   - afterSuccess: Runs after the element was delivered.
    ///   - onError: Runs before the error is delivered.
    ///   - afterError: Runs after the error was delivered.
    ///   - onSubscribe: Runs before the single is subscribed.
    ///   - onSubscribed: Runs after the single was subscribed.
    ///   - onDispose: Runs after the single's subscription was disposed.
    /// - Returns: A single with the same outcome.
    public func `do`(
        onSuccess: (@Sendable (Element) throws -> Void)? = nil,
        afterSuccess: (@Sendable (Element) throws -> Void)? = nil,
        onError: (@Sendable (any Error) throws -> Void)? = nil,
        afterError: (@Sendable (any Error) throws -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Single<Element> {
        Single(
            raw: primitiveSequence.source.do(
                onNext: onSuccess,
                afterNext: afterSuccess,
                onError: onError,
                afterError: afterError,
                onSubscribe: onSubscribe,
                onSubscribed: onSubscribed,
                onDispose: onDispose
            )
        )
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Runs side effects around the outcome of this maybe and around subscription and
    /// disposal, passing the outcome through unchanged.
    ///
    /// Behaves as the observable `do` (these are RxSwift's names for `Maybe`): `onNext`, `onError`
    /// and `onCompleted` run just before the event is delivered, the `after` closures just after,
    /// all on the thread that delivers it. A success is an element followed by a completion, so
    /// `onCompleted` and `afterCompleted` run after a success too, not only for an empty maybe.
    /// `onSubscribe` runs on the subscribing thread before the maybe is subscribed, `onSubscribed`
    /// after; `onDispose` runs once, after the maybe's subscription is disposed.
    ///
    /// If `onNext`, `onError` or `onCompleted` throws, the maybe fails with that error instead
    /// (for `onCompleted` after a success, the element has already been delivered). If
    /// `afterNext` throws, the element has already been delivered and a maybe's subscriber does
    /// not see the error. If `afterError` or `afterCompleted` throws, the maybe has already
    /// ended: the error is dropped (and reported in debug builds).
    ///
    /// - Parameters:
    ///   - onNext: Runs before the element is delivered.
    ///   - afterNext: Runs after the element was delivered.
    ///   - onError: Runs before the error is delivered.
    ///   - afterError: Runs after the error was delivered.
    ///   - onCompleted: Runs before the completion is delivered.
    ///   - afterCompleted: Runs after the completion was delivered.
    ///   - onSubscribe: Runs before the maybe is subscribed.
    ///   - onSubscribed: Runs after the maybe was subscribed.
    ///   - onDispose: Runs after the maybe's subscription was disposed.
    /// - Returns: A maybe with the same outcome.
    public func `do`(
        onNext: (@Sendable (Element) throws -> Void)? = nil,
        afterNext: (@Sendable (Element) throws -> Void)? = nil,
        onError: (@Sendable (any Error) throws -> Void)? = nil,
        afterError: (@Sendable (any Error) throws -> Void)? = nil,
        onCompleted: (@Sendable () throws -> Void)? = nil,
        afterCompleted: (@Sendable () throws -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Maybe<Element> {
        Maybe(
            raw: primitiveSequence.source.do(
                onNext: onNext,
                afterNext: afterNext,
                onError: onError,
                afterError: afterError,
                onCompleted: onCompleted,
                afterCompleted: afterCompleted,
                onSubscribe: onSubscribe,
                onSubscribed: onSubscribed,
                onDispose: onDispose
            )
        )
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Runs side effects around the outcome of this completable and around subscription and
    /// disposal, passing the outcome through unchanged.
    ///
    /// Behaves as the observable `do`: `onError` and `onCompleted` run just before the outcome is
    /// delivered, `afterError` and `afterCompleted` just after, all on the thread that delivers it.
    /// `onSubscribe` runs on the subscribing thread before the completable is subscribed,
    /// `onSubscribed` after; `onDispose` runs once, after the completable's subscription is
    /// disposed.
    ///
    /// If `onError` or `onCompleted` throws, the completable fails with that error instead. If
    /// `afterError` or `afterCompleted` throws, the completable has already ended: the error is
    /// dropped (and reported in debug builds).
    ///
    /// - Parameters:
    ///   - onError: Runs before the error is delivered.
    ///   - afterError: Runs after the error was delivered.
    ///   - onCompleted: Runs before the completion is delivered.
    ///   - afterCompleted: Runs after the completion was delivered.
    ///   - onSubscribe: Runs before the completable is subscribed.
    ///   - onSubscribed: Runs after the completable was subscribed.
    ///   - onDispose: Runs after the completable's subscription was disposed.
    /// - Returns: A completable with the same outcome.
    public func `do`(
        onError: (@Sendable (any Error) throws -> Void)? = nil,
        afterError: (@Sendable (any Error) throws -> Void)? = nil,
        onCompleted: (@Sendable () throws -> Void)? = nil,
        afterCompleted: (@Sendable () throws -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Completable {
        Completable(
            raw: primitiveSequence.source.do(
                onError: onError,
                afterError: afterError,
                onCompleted: onCompleted,
                afterCompleted: afterCompleted,
                onSubscribe: onSubscribe,
                onSubscribed: onSubscribed,
                onDispose: onDispose
            )
        )
    }
}

extension PrimitiveSequence {
    /// Prints every subscription, event and disposal of this trait to standard output, as
    /// RxSwift's `debug` does.
    ///
    /// Behaves as ``ObservableType/debug(_:trimOutput:file:line:function:)``; the events
    /// printed are the trait's observable events (a success shows as `next` then `completed`).
    ///
    /// - Parameters:
    ///   - identifier: Names this trait in the output; by default `File.swift:line (function)`
    ///     of the call.
    ///   - trimOutput: Whether to shorten event descriptions longer than 40 characters.
    ///   - file: The calling file, for the default identifier.
    ///   - line: The calling line, for the default identifier.
    ///   - function: The calling function, for the default identifier.
    /// - Returns: The same trait.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function)
        )
    }
}

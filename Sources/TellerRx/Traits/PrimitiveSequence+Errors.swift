// The error-handling operators of the traits: thin wrappers over the observable operators.

extension PrimitiveSequence {
    /// Continues with the trait `handler` returns when this trait fails.
    ///
    /// Behaves as ``ObservableType/catch(_:)``: a success passes through; on an error,
    /// `handler` runs on the thread that delivered the error and the result takes the outcome
    /// of the trait it returns. If `handler` throws, the result fails with that error.
    ///
    /// ```swift
    /// loadAvatar().catch { _ in .just(placeholder) }
    /// ```
    ///
    /// - Parameter handler: Given the error, returns the trait to continue with.
    /// - Returns: This trait's outcome, or the handler's trait's if this one fails.
    public func `catch`(
        _ handler: @escaping @Sendable (any Error) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.catch { try handler($0).source })
    }

    /// Resubscribes to this trait whenever it fails, until it has an outcome that is not an
    /// error.
    ///
    /// Behaves as ``ObservableType/retry()``: each new attempt is subscribed on the thread that
    /// delivered the error. **This may never end** if the trait always fails.
    ///
    /// - Returns: The outcome of the first attempt that does not fail.
    public func retry() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry())
    }

    /// Subscribes to this trait up to `maxAttemptCount` times in all while it fails.
    ///
    /// Behaves as ``ObservableType/retry(_:)``: `maxAttemptCount` counts the first
    /// subscription, so `retry(3)` retries twice, and the last attempt's error is delivered.
    /// A count of 0 subscribes to nothing and completes at once, as in RxSwift: a ``Single``
    /// then fails with ``RxError/noElements`` (reported in debug builds), a ``Maybe`` or a
    /// ``Completable`` completes.
    ///
    /// - Parameter maxAttemptCount: The most subscriptions to make, the first included.
    /// - Returns: The outcome of the first attempt that does not fail, or the last error.
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// Resubscribes to this trait after a failure when the sequence `notificationHandler`
    /// returns sends an element.
    ///
    /// Behaves as the observable `retry(when:)`: `notificationHandler` runs once per
    /// subscription, on the subscribing thread, and is given the errors of type `Failure`; an
    /// error of another type is delivered at once. If the
    /// trigger fails, the result fails with its error. If the trigger completes, the result
    /// completes without an element, as in RxSwift: a ``Single`` then fails with
    /// ``RxError/noElements`` (reported in debug builds), so end the trigger with an error
    /// instead.
    ///
    /// ```swift
    /// // Three attempts in all, one second apart, then fail with the last error.
    /// request.retry(when: { (errors: Observable<NetworkError>) in
    ///     errors
    ///         .scan(0) { retries, error in
    ///             guard retries < 2 else { throw error }
    ///             return retries + 1
    ///         }
    ///         .flatMap { _ in Observable<Int>.timer(.seconds(1), scheduler: MainScheduler.instance) }
    /// })
    /// ```
    ///
    /// - Parameter notificationHandler: Turns the sequence of failures into a trigger sequence.
    /// - Returns: The outcome of the first attempt that does not fail, or the trigger's end.
    public func retry<TriggerObservable: ObservableType, Failure: Swift.Error>(
        when notificationHandler: @escaping @Sendable (Observable<Failure>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Resubscribes to this trait after a failure when the sequence `notificationHandler`
    /// returns sends an element; every error is given to the handler.
    ///
    /// Behaves as the typed `retry(when:)` with every error type accepted.
    ///
    /// - Parameter notificationHandler: Turns the sequence of failures into a trigger sequence.
    /// - Returns: The outcome of the first attempt that does not fail, or the trigger's end.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping @Sendable (Observable<any Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds with `element` instead of failing.
    ///
    /// The success of this single passes through; on an error, `element` is delivered instead,
    /// on the thread that delivered the error.
    ///
    /// - Parameter element: The element to succeed with if this single fails.
    /// - Returns: A single that never fails.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.catchAndReturn(element))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds with `element` instead of failing.
    ///
    /// The outcome of this maybe (an element or an empty completion) passes through; on an
    /// error, `element` is delivered instead, on the thread that delivered the error.
    ///
    /// - Parameter element: The element to succeed with if this maybe fails.
    /// - Returns: A maybe that never fails.
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.catchAndReturn(element))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Awaits the outcome of this single.
    ///
    /// Subscribes when awaited and returns the element, or throws the error. The awaiting
    /// task resumes on whichever thread the single delivers its outcome (or is cancelled on).
    ///
    /// Cancellation, as in RxSwift: cancelling the awaiting task while the outcome is pending
    /// disposes the subscription and throws `CancellationError`. Awaiting in a task that is
    /// already cancelled still subscribes: an outcome the single sends while being subscribed
    /// (`Single.just`, a cached value) is returned or thrown as usual; otherwise the
    /// subscription is disposed at once and `CancellationError` is thrown.
    ///
    /// ```swift
    /// let user = try await api.fetchUser(id).value
    /// ```
    ///
    /// - Throws: The single's error, or `CancellationError` if the task is cancelled before
    ///   the outcome.
    public var value: Element {
        get async throws {
            guard let element = try await firstElement(of: primitiveSequence.source) else {
                // Only a single built outside its grammar can complete empty.
                throw RxError.noElements
            }
            return element
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Awaits the outcome of this maybe: its element, or `nil` if it completes empty.
    ///
    /// Subscribes when awaited; the awaiting task resumes on whichever thread the maybe
    /// delivers its outcome. Cancelling the awaiting task while the outcome is pending disposes
    /// the subscription and throws `CancellationError`. In a task that is already cancelled, as
    /// in RxSwift, the maybe is still subscribed and an outcome it sends while being subscribed
    /// (`Maybe.empty()`, `Maybe.just`) is returned or thrown as usual; otherwise the
    /// subscription is disposed at once and `CancellationError` is thrown.
    ///
    /// - Throws: The maybe's error, or `CancellationError` if the task is cancelled before
    ///   the outcome.
    public var value: Element? {
        get async throws {
            try await firstElement(of: primitiveSequence.source)
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Awaits the completion of this completable.
    ///
    /// Subscribes when awaited and returns when it completes; the awaiting task resumes on
    /// whichever thread the completable ends on. Cancelling the awaiting task while it is
    /// pending disposes the subscription and throws `CancellationError`. In a task that is
    /// already cancelled, as in RxSwift, the completable is still subscribed and a completion
    /// or error it sends while being subscribed (`Completable.empty()`) ends the wait as usual;
    /// otherwise the subscription is disposed at once and `CancellationError` is thrown.
    ///
    /// - Throws: The completable's error, or `CancellationError` if the task is cancelled
    ///   before the completion.
    public var value: Void {
        get async throws {
            _ = try await firstElement(of: primitiveSequence.source)
        }
    }
}

/// Subscribes to `source` and returns its first element, or `nil` if it completes first.
/// The subscription is disposed as soon as the answer is known or the task is cancelled. In a
/// task cancelled before this is called, `source` is still subscribed, and an answer it gives
/// during `subscribe` wins over the cancellation (RxSwift's behaviour).
func firstElement<Element: Sendable>(of source: Observable<Element>) async throws -> Element? {
    let awaiter = FirstElementAwaiter<Element>()
    return try await withTaskCancellationHandler {
        try await withUnsafeThrowingContinuation { continuation in
            awaiter.start(source, continuation: continuation)
        }
    } onCancel: {
        awaiter.cancel()
    }
}

/// Resumes one continuation with the first event of a subscription, whichever comes first:
/// the event or the cancellation of the awaiting task (once subscribing has returned).
private final class FirstElementAwaiter<Element: Sendable>: ObserverType, @unchecked Sendable {
    // @unchecked: the mutable state is in `state`; `subscription` is thread-safe.
    private enum State {
        case idle
        /// The task was cancelled before `start`.
        case cancelledBeforeStart
        case waiting(UnsafeContinuation<Element?, any Error>)
        case finished
    }

    private let state = LockedState(State.idle)
    private let subscription = SingleAssignmentDisposable()

    init() {
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    func start(_ source: Observable<Element>, continuation: UnsafeContinuation<Element?, any Error>) {
        let wasCancelled = state.withLock { state -> Bool in
            defer { state = .waiting(continuation) }
            if case .cancelledBeforeStart = state { return true }
            return false
        }
        subscription.setDisposable(source.subscribe(self))
        // Cancelled before: an outcome sent while subscribing has been delivered; only if none
        // came does the cancellation count.
        if wasCancelled { cancel() }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): finish(with: .success(element))
        case .error(let error): finish(with: .failure(error))
        case .completed: finish(with: .success(nil))
        }
    }

    func cancel() {
        let isBeforeStart = state.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .cancelledBeforeStart
            return true
        }
        if isBeforeStart { return }
        finish(with: .failure(CancellationError()))
    }

    private func finish(with result: Result<Element?, any Error>) {
        let continuation = state.withLock { state -> UnsafeContinuation<Element?, any Error>? in
            defer { state = .finished }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        guard let continuation else { return }
        // Dispose before resuming, so the awaiting code finds the source already released.
        subscription.dispose()
        continuation.resume(with: result)
    }
}

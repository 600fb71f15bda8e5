extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Awaits the outcome of this single.
    ///
    /// Subscribes when awaited and returns the element, or throws the error. Cancelling the
    /// awaiting task disposes the subscription at once and throws `CancellationError`.
    ///
    /// ```swift
    /// let user = try await api.fetchUser(id).value
    /// ```
    ///
    /// - Throws: The single's error, or `CancellationError` if the task is cancelled first.
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
    /// Subscribes when awaited. Cancelling the awaiting task disposes the subscription at
    /// once and throws `CancellationError`.
    ///
    /// - Throws: The maybe's error, or `CancellationError` if the task is cancelled first.
    public var value: Element? {
        get async throws {
            try await firstElement(of: primitiveSequence.source)
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Awaits the completion of this completable.
    ///
    /// Subscribes when awaited and returns when it completes. Cancelling the awaiting task
    /// disposes the subscription at once and throws `CancellationError`.
    ///
    /// - Throws: The completable's error, or `CancellationError` if the task is cancelled first.
    public var value: Void {
        get async throws {
            _ = try await firstElement(of: primitiveSequence.source)
        }
    }
}

/// Subscribes to `source` and returns its first element, or `nil` if it completes first.
/// The subscription is disposed as soon as the answer is known or the task is cancelled.
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
/// the event or the cancellation of the awaiting task.
private final class FirstElementAwaiter<Element: Sendable>: ObserverType, @unchecked Sendable {
    // @unchecked: the mutable state is in `state`; `subscription` is thread-safe.
    private enum State {
        case idle
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
        let isCancelled = state.withLock { state -> Bool in
            guard case .idle = state else { return true }
            state = .waiting(continuation)
            return false
        }
        if isCancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        subscription.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): finish(with: .success(element))
        case .error(let error): finish(with: .failure(error))
        case .completed: finish(with: .success(nil))
        }
    }

    func cancel() {
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

extension ObservableConvertibleType {
    /// The elements of this sequence as an `AsyncSequence`, for `for try await` loops.
    ///
    /// Each iteration subscribes when its iterator is made (when the loop starts) and buffers
    /// every element it has not yet consumed, without limit, so nothing is lost when the loop
    /// body is slower than the source. The loop ends when the sequence completes, and throws
    /// the sequence's error when it fails. Leaving the loop early or dropping the iterator
    /// disposes the subscription.
    ///
    /// Cancelling the iterating task disposes the subscription too, and then, as in RxSwift,
    /// the loop gets the elements already buffered and throws `CancellationError`, unless the
    /// sequence had already ended: then the loop ends as the sequence did (normally, or with
    /// its error). So iterating `Observable.of(1, 2)` in a cancelled task still gets 1 and 2
    /// and ends normally, while iterating a sequence that has not ended throws.
    ///
    /// ```swift
    /// for try await state in repository.observe().values {
    ///     render(state)
    /// }
    /// ```
    public var values: ObservableValues<Element> {
        ObservableValues(source: asObservable())
    }
}

/// The elements of an observable sequence as an `AsyncSequence`: see
/// ``ObservableConvertibleType/values``.
public struct ObservableValues<Element: Sendable>: AsyncSequence, Sendable {
    /// The errors the iteration can throw: whatever the observable fails with.
    public typealias Failure = any Error

    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    /// Subscribes to the observable and returns an iterator over its elements.
    ///
    /// - Returns: An iterator that owns the subscription; dropping it disposes the subscription.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: ValuesSubscription(source: source))
    }

    /// Iterates the buffered elements of one subscription.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let handle: ValuesSubscription<Element>

        fileprivate init(handle: ValuesSubscription<Element>) {
            self.handle = handle
        }

        /// The next element, waiting for it if none is buffered.
        ///
        /// - Returns: The next element, or `nil` once the sequence has completed.
        /// - Throws: The observable's error, or `CancellationError` if the task was cancelled
        ///   before the sequence ended; once, later calls return `nil`.
        public mutating func next() async throws -> Element? {
            try await handle.next(isolation: nil)
        }

        /// The next element, waiting for it on `actor` if none is buffered.
        ///
        /// - Parameter actor: The caller's actor, so the wait needs no hop to another executor.
        /// - Returns: The next element, or `nil` once the sequence has completed.
        /// - Throws: The observable's error, or `CancellationError` if the task was cancelled
        ///   before the sequence ended; once, later calls return `nil`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            try await handle.next(isolation: actor)
        }
    }
}

/// One subscription behind a ``ObservableValues/AsyncIterator``. The iterator alone holds it
/// (the source holds only the ``ValuesChannel``), so dropping the iterator disposes the
/// subscription even when the source would keep its observer alive.
private final class ValuesSubscription<Element: Sendable>: Sendable {
    private let channel = ValuesChannel<Element>()
    private let subscription: any Disposable

    init(source: Observable<Element>) {
        subscription = source.subscribe(channel)
    }

    deinit {
        // Nobody can iterate any more: free the buffered elements too, even if the source
        // keeps its observer (the channel) alive.
        subscription.dispose()
        channel.discard()
    }

    /// The iterating task was cancelled: stop the subscription and end the iteration with
    /// `CancellationError` after the buffered elements, unless the sequence has already ended.
    func cancel() {
        subscription.dispose()
        channel.cancel()
    }

    func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
        if Task.isCancelled {
            cancel()
        }
        if let ready = channel.poll() {
            return try ready.get()
        }
        return try await withTaskCancellationHandler(
            operation: {
                try await withUnsafeThrowingContinuation(isolation: actor) { continuation in
                    channel.park(continuation)
                }
            },
            onCancel: { self.cancel() },
            isolation: actor
        )
    }
}

/// The observer end: buffers elements and the terminal event, and hands them to the one
/// waiting `next()` call, if any.
private final class ValuesChannel<Element: Sendable>: ObserverType, @unchecked Sendable {
    // @unchecked: all mutable state is in `state`.
    typealias Continuation = UnsafeContinuation<Element?, any Error>

    private struct State {
        var buffer = FIFOQueue<Element>()
        /// Set once the source ended (or the iteration was cancelled); delivered after the
        /// buffered elements. `nil` inside means "finished without error".
        var end: Result<Void, any Error>?
        var waiter: Continuation?
    }

    private let state = LockedState(State())

    init() {
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        let waiter = state.withLock { state -> Continuation? in
            guard state.end == nil else { return nil }
            guard let waiter = state.waiter else {
                state.buffer.enqueue(element)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            end(with: .failure(error))
        case .completed:
            end(with: .success(()))
        }
    }

    /// Ends the iteration with `CancellationError` (after the buffered elements) unless the
    /// source has already ended; a waiting `next()` (which means the buffer is empty) throws it
    /// at once.
    func cancel() {
        end(with: .failure(CancellationError()))
    }

    /// Drops the buffered elements and ends the iteration; for an iterator that is gone.
    func discard() {
        state.withLock { state in
            state.buffer.removeAll()
            state.end = .success(())
        }
    }

    /// What `next()` returns without waiting, or `nil` if it has to wait.
    func poll() -> Result<Element?, any Error>? {
        state.withLock { Self.take(from: &$0) }
    }

    /// Answers `continuation` at once if something is ready, or parks it until something is.
    func park(_ continuation: Continuation) {
        let ready = state.withLock { state -> Result<Element?, any Error>? in
            if let ready = Self.take(from: &state) { return ready }
            if state.waiter != nil {
                reportMisuse("Two next() calls overlapped on one values iterator; the second one ends the iteration.")
                return .success(nil)
            }
            state.waiter = continuation
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }

    private func end(with end: Result<Void, any Error>) {
        let waiter = state.withLock { state -> Continuation? in
            guard state.end == nil else { return nil }
            state.end = end
            guard let waiter = state.waiter else { return nil }
            // A waiter means the buffer is empty: it takes the end now.
            state.waiter = nil
            state.end = .success(())
            return waiter
        }
        guard let waiter else { return }
        switch end {
        case .success: waiter.resume(returning: nil)
        case .failure(let error): waiter.resume(throwing: error)
        }
    }

    /// The next buffered element, else the end (an error is handed out once, then `nil`),
    /// else `nil` when the caller has to wait.
    private static func take(from state: inout State) -> Result<Element?, any Error>? {
        if let element = state.buffer.dequeue() { return .success(element) }
        switch state.end {
        case nil:
            return nil
        case .success:
            return .success(nil)
        case .failure(let error):
            state.end = .success(())
            return .failure(error)
        }
    }
}

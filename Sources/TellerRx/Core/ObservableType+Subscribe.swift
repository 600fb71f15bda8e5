import Synchronization

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
    /// handler is reported on standard error in debug builds. `onDisposed` runs once, after the
    /// sequence ends or when the subscription is disposed, whichever comes first.
    ///
    /// - Parameters:
    ///   - onNext: Called for each element.
    ///   - onError: Called once if the sequence fails.
    ///   - onCompleted: Called once if the sequence completes.
    ///   - onDisposed: Called once when the subscription ends for any reason.
    /// - Returns: A disposable that ends the subscription.
    public func subscribe(
        onNext: (@Sendable (Element) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        guard let onDisposed else {
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

/// The observer behind `subscribe(onNext:onError:onCompleted:onDisposed:)`: holds the closures
/// themselves (no event-switching closure to allocate), receives elements without an `Event`,
/// and enforces the event grammar so nothing reaches a closure after a terminal event.
private final class CallbackObserver<Element>: ObserverType, @unchecked Sendable {
    // @unchecked: the closures are immutable; `isStopped` is atomic.
    private let onNextHandler: (@Sendable (Element) -> Void)?
    private let onError: (@Sendable (any Error) -> Void)?
    private let onCompleted: (@Sendable () -> Void)?
    /// Runs `onDisposed` after a terminal event (if the subscriber gave one).
    private let onEnd: AnonymousDisposable?
    private let isStopped = Atomic<Bool>(false)

    init(
        onNext: (@Sendable (Element) -> Void)?,
        onError: (@Sendable (any Error) -> Void)?,
        onCompleted: (@Sendable () -> Void)?,
        onEnd: AnonymousDisposable?
    ) {
        self.onNextHandler = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.onEnd = onEnd
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    func onNext(_ element: Element) {
        guard !isStopped.load(ordering: .relaxed) else {
            reportMisuse("An element was sent after the sequence ended; it was dropped.")
            return
        }
        onNextHandler?(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            guard !isStopped.exchange(true, ordering: .relaxed) else {
                reportMisuse("A terminal event was sent after the sequence ended; it was dropped.")
                return
            }
            if let onError {
                onError(error)
            } else {
                reportMisuse("Unhandled error in subscribe(onNext:onError:...): \(error)")
            }
            onEnd?.dispose()
        case .completed:
            guard !isStopped.exchange(true, ordering: .relaxed) else {
                reportMisuse("A terminal event was sent after the sequence ended; it was dropped.")
                return
            }
            onCompleted?()
            onEnd?.dispose()
        }
    }
}

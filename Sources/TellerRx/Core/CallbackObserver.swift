/// The observer behind `subscribe(onNext:onError:onCompleted:onDisposed:)`: holds the closures
/// themselves (no event-switching closure to allocate), receives elements without an `Event`,
/// and enforces the event grammar so nothing reaches a closure after a terminal event.
final class CallbackObserver<Element>: ObserverType, @unchecked Sendable {
    // @unchecked: the closures are immutable; `isStopped` is atomic.
    private let onNextHandler: (@Sendable (Element) -> Void)?
    private let onError: (@Sendable (any Error) -> Void)?
    private let onCompleted: (@Sendable () -> Void)?
    /// Runs `onDisposed` after a terminal event (if the subscriber gave one).
    private let onEnd: AnonymousDisposable?
    private let isStopped = AtomicState(false)

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
        guard !isStopped.isSet else {
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
            guard isStopped.set() else {
                reportMisuse("A terminal event was sent after the sequence ended; it was dropped.")
                return
            }
            if let onError {
                onError(error)
            } else {
                Hooks.reportUnhandledError(error)
            }
            onEnd?.dispose()
        case .completed:
            guard isStopped.set() else {
                reportMisuse("A terminal event was sent after the sequence ended; it was dropped.")
                return
            }
            onCompleted?()
            onEnd?.dispose()
        }
    }
}

/// The observer behind `subscribe(onNext:)` with no other closure: only the element closure
/// and the stopped flag, so a live subscription holds as little as possible.
///
/// `@usableFromInline` so the inlinable `subscribe(onNext:)` creates it with concrete types.
@usableFromInline
final class NextObserver<Element>: ObserverType, @unchecked Sendable {
    // @unchecked: `onNextHandler` is immutable; `isStopped` is atomic.
    private let onNextHandler: (@Sendable (Element) -> Void)?
    private let isStopped = AtomicState(false)

    @usableFromInline
    init(_ onNext: (@Sendable (Element) -> Void)?) {
        self.onNextHandler = onNext
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    @usableFromInline
    func onNext(_ element: Element) {
        guard !isStopped.isSet else {
            reportMisuse("An element was sent after the sequence ended; it was dropped.")
            return
        }
        onNextHandler?(element)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            guard isStopped.set() else {
                reportMisuse("A terminal event was sent after the sequence ended; it was dropped.")
                return
            }
            Hooks.reportUnhandledError(error)
        case .completed:
            guard isStopped.set() else {
                reportMisuse("A terminal event was sent after the sequence ended; it was dropped.")
                return
            }
        }
    }
}

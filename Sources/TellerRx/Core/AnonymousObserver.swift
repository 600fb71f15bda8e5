/// The observer behind `subscribe(onNext:…)`: calls a closure, and enforces the event grammar
/// so that nothing reaches the closure after a terminal event.
final class AnonymousObserver<Element>: ObserverType, @unchecked Sendable {
    // @unchecked: `handler` is immutable; `isStopped` is atomic.
    typealias EventHandler = @Sendable (Event<Element>) -> Void

    private let handler: EventHandler
    private let isStopped = AtomicState(false)

    init(_ handler: @escaping EventHandler) {
        self.handler = handler
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
        handler(.next(element))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            guard !isStopped.isSet else {
                reportMisuse("An element was sent after the sequence ended; it was dropped.")
                return
            }
            handler(event)
        case .error, .completed:
            guard isStopped.set() else {
                reportMisuse("A terminal event was sent after the sequence ended; it was dropped.")
                return
            }
            handler(event)
        }
    }
}

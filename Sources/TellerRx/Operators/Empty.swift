extension ObservableType {
    /// An observable that completes at once, on the subscribing thread, without elements.
    ///
    /// - Returns: An empty observable.
    public static func empty() -> Observable<Element> {
        EmptyProducer()
    }

    /// An observable that never sends anything and never ends.
    ///
    /// - Returns: A silent observable; its subscriptions hold nothing.
    public static func never() -> Observable<Element> {
        NeverProducer()
    }

    /// An observable that fails at once, on the subscribing thread, with `error`.
    ///
    /// - Parameter error: The error to send.
    /// - Returns: A failing observable.
    public static func error(_ error: any Error) -> Observable<Element> {
        ErrorProducer(error: error)
    }
}

// Not ``Producer``s: with no sink and nothing to wire, these send at once and skip the
// trampoline, as RxSwift's do.

private final class EmptyProducer<Element: Sendable>: ImmediateObservable<Element>, @unchecked Sendable {
    // @unchecked: stateless.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        observer.on(.completed)
        return Disposables.create()
    }
}

private final class NeverProducer<Element: Sendable>: ImmediateObservable<Element>, @unchecked Sendable {
    // @unchecked: stateless.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        Disposables.create()
    }
}

private final class ErrorProducer<Element: Sendable>: ImmediateObservable<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let error: any Error

    init(error: any Error) {
        self.error = error
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        observer.on(.error(error))
        return Disposables.create()
    }
}

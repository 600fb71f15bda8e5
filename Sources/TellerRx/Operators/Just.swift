extension ObservableType {
    /// An observable that sends `element` and completes, synchronously on the subscribing thread.
    ///
    /// - Parameter element: The single element to send.
    /// - Returns: A one-element observable.
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element: element)
    }

    /// An observable that sends `element` and completes on `scheduler`.
    ///
    /// - Parameters:
    ///   - element: The single element to send.
    ///   - scheduler: Where the element and completion are sent.
    /// - Returns: A one-element observable.
    public static func just(_ element: Element, scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        Observable<Element>.of(element, scheduler: scheduler)
    }
}

/// Not a ``Producer``: with no sink and nothing to wire, it sends at once and skips the
/// trampoline, as RxSwift's `just` does. Usable from inline so that `just(_:)` is specialized
/// at the call site: unspecialized, every call looked up `Just<Element>`'s metadata at run time,
/// a fifth of flatMap's cost per element when each inner sequence is a `just`.
@usableFromInline
final class Just<Element: Sendable>: ImmediateObservable<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let element: Element

    @usableFromInline
    init(element: Element) {
        self.element = element
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        observer.onNext(element)
        observer.on(.completed)
        return Disposables.create()
    }

    override func withScalarElement(_ body: (Element) -> Void) -> Bool {
        body(element)
        return true
    }
}

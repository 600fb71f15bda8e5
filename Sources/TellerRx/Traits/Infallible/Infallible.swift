/// A type that is an ``Infallible``: the infallible operators are extensions of this protocol.
public protocol InfallibleType: ObservableConvertibleType {}

/// An observable sequence that never fails: it sends elements and may complete, but never sends
/// an error, as in RxSwift 6.
///
/// It is not shared and does not replay (unlike RxCocoa's `Driver`): each subscription runs the
/// work again, exactly like the ``Observable`` it wraps, and events are delivered on the thread
/// that sends them. Make one from any sequence by saying what replaces an error
/// (``ObservableConvertibleType/asInfallible(onErrorJustReturn:)`` and its siblings) or with
/// ``Infallible/create(subscribe:)``; subscribe without an error handler.
///
/// The guarantee holds as long as what you plug in holds it: as in RxSwift, a closure marked
/// `throws` that throws, or an inner sequence of `flatMap` that fails, ends the sequence with
/// an error, which ``InfallibleType/subscribe(onNext:onCompleted:onDisposed:)`` hands to
/// ``Hooks/defaultErrorHandler``.
///
/// ```swift
/// let names: Infallible<String> = api.names().asInfallible(onErrorJustReturn: "")
/// names.subscribe(onNext: { print($0) })
/// ```
public struct Infallible<Element: Sendable>: InfallibleType, Sendable {
    private let source: Observable<Element>

    /// Wraps `source`, which must never fail. Internal: the public ways in are
    /// ``Infallible/create(subscribe:)`` and the `asInfallible` conversions.
    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// This sequence as an ``Observable`` (which then never fails).
    ///
    /// - Returns: The observable behind this infallible.
    public func asObservable() -> Observable<Element> {
        source
    }
}

/// One notification of an ``Infallible``: an element or the completion, never an error.
public enum InfallibleEvent<Element> {
    /// The sequence produced an element.
    case next(Element)
    /// The sequence ended successfully.
    case completed
}

extension InfallibleEvent: Sendable where Element: Sendable {}
extension InfallibleEvent: Equatable where Element: Equatable {}

extension InfallibleEvent: EventConvertible {
    /// This event as an ``Event``.
    public var event: Event<Element> {
        switch self {
        case .next(let element): .next(element)
        case .completed: .completed
        }
    }
}

extension Infallible {
    /// The observer a ``Infallible/create(subscribe:)`` closure receives: call it with elements,
    /// then at most one completion, from any thread.
    public typealias InfallibleObserver = @Sendable (InfallibleEvent<Element>) -> Void

    /// An infallible whose subscribers each run `subscribe` with an observer for their events.
    ///
    /// `subscribe` runs on the subscribing thread, once per subscription; like
    /// ``ObservableType/create(_:)``'s closure it may capture non-`Sendable` state. Events sent
    /// after the completion, or after the subscription was disposed, are dropped. The disposable
    /// it returns is disposed when the subscription ends.
    ///
    /// ```swift
    /// let ticks = Infallible<Int>.create { observer in
    ///     observer(.next(1))
    ///     observer(.completed)
    ///     return Disposables.create()
    /// }
    /// ```
    ///
    /// - Parameter subscribe: Starts the work for one subscriber.
    /// - Returns: An infallible running `subscribe` for every subscriber.
    public static func create(
        subscribe: @escaping (@escaping InfallibleObserver) -> any Disposable
    ) -> Infallible<Element> {
        Infallible(
            Observable.create { observer in
                subscribe { event in
                    switch event {
                    case .next(let element): observer.onNext(element)
                    case .completed: observer.onCompleted()
                    }
                }
            }
        )
    }
}

extension InfallibleType {
    /// Subscribes closures for elements, completion and disposal (there is no error to handle).
    ///
    /// The closures run on the thread that delivers each event. `onDisposed` runs once, after
    /// the sequence ends or when the subscription is disposed, whichever comes first.
    ///
    /// - Parameters:
    ///   - onNext: Called for each element.
    ///   - onCompleted: Called once if the sequence completes.
    ///   - onDisposed: Called once when the subscription ends for any reason.
    /// - Returns: A disposable that ends the subscription.
    public func subscribe(
        onNext: (@Sendable (Element) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures that receive `object` along with each event, without keeping
    /// `object` alive (see ``ObservableType/subscribe(with:onNext:onError:onCompleted:onDisposed:)``).
    ///
    /// - Parameters:
    ///   - object: The object passed to the closures, held weakly.
    ///   - onNext: Called for each element while `object` is alive.
    ///   - onCompleted: Called once if the sequence completes while `object` is alive.
    ///   - onDisposed: Called once when the subscription ends, if `object` is alive then.
    /// - Returns: A disposable that ends the subscription.
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        onNext: (@Sendable (Object, Element) -> Void)? = nil,
        onCompleted: (@Sendable (Object) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes a closure that receives every event.
    ///
    /// - Parameter on: Called serially, on the thread that delivers each event. An error (which
    ///   a well-behaved infallible never sends) is not passed to it: it is reported in debug
    ///   builds and dropped.
    /// - Returns: A disposable that ends the subscription.
    public func subscribe(_ on: @escaping @Sendable (InfallibleEvent<Element>) -> Void) -> any Disposable {
        asObservable().subscribe { event in
            switch event {
            case .next(let element): on(.next(element))
            case .completed: on(.completed)
            case .error(let error): reportMisuse("An Infallible sent an error, which it must never do: \(error)")
            }
        }
    }
}

extension ObservableConvertibleType {
    /// This sequence as an ``Infallible`` that, instead of failing, sends `element` and completes.
    ///
    /// - Parameter element: The last element sent if this sequence fails.
    /// - Returns: An infallible with this sequence's elements.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// This sequence as an ``Infallible`` that, instead of failing, continues with `infallible`.
    ///
    /// - Parameter infallible: The sequence to continue with if this one fails; subscribed on
    ///   the thread that delivered the error.
    /// - Returns: An infallible with this sequence's elements, then `infallible`'s if it fails.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// This sequence as an ``Infallible`` that, instead of failing, continues with the
    /// infallible `onErrorRecover` returns for the error.
    ///
    /// - Parameter onErrorRecover: Given the error, returns the sequence to continue with; runs
    ///   on the thread that delivered the error.
    /// - Returns: An infallible with this sequence's elements, then the recovery's if it fails.
    public func asInfallible(
        onErrorRecover: @escaping @Sendable (any Error) -> Infallible<Element>
    ) -> Infallible<Element> {
        Infallible(asObservable().catch { onErrorRecover($0).asObservable() })
    }
}

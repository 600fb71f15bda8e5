// `bind(to:)` for infallibles: the observable bindings, on `asObservable()`. An infallible never
// fails, so none of these has an error to report.

extension InfallibleType {
    /// Subscribes `observers` to this infallible: every element and the completion are sent to
    /// each of them, in order.
    ///
    /// Events reach the observers serially, on the thread that delivers them (use
    /// `observe(on:)` first to pick the thread).
    ///
    /// - Parameter observers: The observers that receive the events.
    /// - Returns: A disposable that ends the binding.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element {
        asObservable().bind(toEach: observers)
    }

    /// Subscribes observers of optional elements to this infallible: every element is sent to
    /// each of them wrapped in an optional, and the completion too.
    ///
    /// Events reach the observers serially, on the thread that delivers them.
    ///
    /// - Parameter observers: The observers that receive the events.
    /// - Returns: A disposable that ends the binding.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element? {
        asObservable().bind(toEach: observers)
    }

    /// Subscribes `onNext` to the elements of this infallible.
    ///
    /// `onNext` runs on the thread that delivers each element.
    ///
    /// - Parameter onNext: Called for each element.
    /// - Returns: A disposable that ends the binding.
    public func bind(onNext: @escaping @Sendable (Element) -> Void) -> any Disposable {
        asObservable().bind(onNext: onNext)
    }

    /// Sends every element of this infallible to each of `relays`, with `accept(_:)`.
    ///
    /// Elements are accepted on the thread that delivers them. A relay never ends, so the
    /// completion is ignored.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
        asObservable().bindRelays(named: "PublishRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this infallible, wrapped in an optional, to each of `relays`.
    ///
    /// Threads and completion work as in the non-optional `bind(to:)` for relays.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: PublishRelay<Element?>...) -> any Disposable {
        asObservable().bindRelays(named: "PublishRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this infallible to each of `relays`, with `accept(_:)`, which
    /// updates their `value`.
    ///
    /// Threads and completion work as in `bind(to:)` for a ``PublishRelay``.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
        asObservable().bindRelays(named: "BehaviorRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this infallible, wrapped in an optional, to each of `relays`.
    ///
    /// Threads and completion work as in `bind(to:)` for a ``PublishRelay``.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: BehaviorRelay<Element?>...) -> any Disposable {
        asObservable().bindRelays(named: "BehaviorRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this infallible to each of `relays`, with `accept(_:)`.
    ///
    /// Threads and completion work as in `bind(to:)` for a ``PublishRelay``.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: ReplayRelay<Element>...) -> any Disposable {
        asObservable().bindRelays(named: "ReplayRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this infallible, wrapped in an optional, to each of `relays`.
    ///
    /// Threads and completion work as in `bind(to:)` for a ``PublishRelay``.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: ReplayRelay<Element?>...) -> any Disposable {
        asObservable().bindRelays(named: "ReplayRelay") { element in relays.forEach { $0.accept(element) } }
    }
}

// `bind(to:)`: RxCocoa's and RxRelay's spelling of "subscribe and forward", kept because ported
// app code uses it everywhere. Binding is a subscription like any other; it states intent.

extension ObservableType {
    /// Subscribes `observers` to this sequence: every event is sent to each of them, in order.
    ///
    /// Events reach the observers serially, on the thread that delivers them (use
    /// `observe(on:)` first to pick the thread). Errors and completion are forwarded too.
    ///
    /// ```swift
    /// let names = PublishSubject<String>()
    /// repository.observe().map(\.title).bind(to: names).disposed(by: disposeBag)
    /// ```
    ///
    /// - Parameter observers: The observers that receive the events.
    /// - Returns: A disposable that ends the binding.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element {
        bind(toEach: observers)
    }

    /// Subscribes observers of optional elements to this sequence: every element is sent to
    /// each of them wrapped in an optional, and errors and completion are forwarded too.
    ///
    /// Events reach the observers serially, on the thread that delivers them.
    ///
    /// - Parameter observers: The observers that receive the events.
    /// - Returns: A disposable that ends the binding.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element? {
        bind(toEach: observers)
    }

    /// The variadic `bind(to:)` with an array (Swift cannot pass variadic arguments on).
    func bind<Observer: ObserverType>(toEach observers: [Observer]) -> any Disposable
    where Observer.Element == Element {
        if observers.count == 1 {
            return asObservable().subscribe(observers[0])
        }
        return asObservable().subscribe(BindObserver(observers) { $0 })
    }

    /// The variadic `bind(to:)` for observers of optionals, with an array.
    func bind<Observer: ObserverType>(toEach observers: [Observer]) -> any Disposable
    where Observer.Element == Element? {
        asObservable().subscribe(BindObserver(observers) { $0 })
    }

    /// Binds this sequence with `binder`, which receives the sequence and returns the binding,
    /// usually a disposable.
    ///
    /// `binder` runs at once, on the calling thread.
    ///
    /// - Parameter binder: Makes the binding from this sequence.
    /// - Returns: What `binder` returns.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Binds this sequence with a curried `binder` and a final argument, as RxCocoa's
    /// data-source bindings do.
    ///
    /// `binder` runs at once, on the calling thread.
    ///
    /// - Parameters:
    ///   - binder: Takes this sequence, then `curriedArgument`, and returns the binding.
    ///   - curriedArgument: The final argument passed to `binder`.
    /// - Returns: What `binder` returns.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext` to the elements of this sequence.
    ///
    /// `onNext` runs on the thread that delivers each element. A binding is not expected to
    /// fail: an error is reported on standard error in debug builds and otherwise ignored.
    ///
    /// - Parameter onNext: Called for each element.
    /// - Returns: A disposable that ends the binding.
    public func bind(onNext: @escaping @Sendable (Element) -> Void) -> any Disposable {
        subscribe(onNext: onNext, onError: { error in reportMisuse("Binding error: \(error)") })
    }
}

extension ObservableType {
    /// Sends every element of this sequence to each of `relays`, with `accept(_:)`.
    ///
    /// Elements are accepted on the thread that delivers them. A relay never ends, so the
    /// completion is ignored, and an error (a binding is not expected to fail) is reported on
    /// standard error in debug builds and otherwise ignored.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
        bindRelays(named: "PublishRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this sequence, wrapped in an optional, to each of `relays`.
    ///
    /// Threads, completion and errors work as in the non-optional `bind(to:)` for relays.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: PublishRelay<Element?>...) -> any Disposable {
        bindRelays(named: "PublishRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this sequence to each of `relays`, with `accept(_:)`, which
    /// updates their `value`.
    ///
    /// Threads, completion and errors work as in `bind(to:)` for a ``PublishRelay``.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
        bindRelays(named: "BehaviorRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this sequence, wrapped in an optional, to each of `relays`.
    ///
    /// Threads, completion and errors work as in `bind(to:)` for a ``PublishRelay``.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: BehaviorRelay<Element?>...) -> any Disposable {
        bindRelays(named: "BehaviorRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this sequence to each of `relays`, with `accept(_:)`.
    ///
    /// Threads, completion and errors work as in `bind(to:)` for a ``PublishRelay``.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: ReplayRelay<Element>...) -> any Disposable {
        bindRelays(named: "ReplayRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element of this sequence, wrapped in an optional, to each of `relays`.
    ///
    /// Threads, completion and errors work as in `bind(to:)` for a ``PublishRelay``.
    ///
    /// - Parameter relays: The relays that receive the elements.
    /// - Returns: A disposable that ends the binding.
    public func bind(to relays: ReplayRelay<Element?>...) -> any Disposable {
        bindRelays(named: "ReplayRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Subscribes `accept` to the elements; completion is ignored (relays never end) and an
    /// error is only reported.
    func bindRelays(named name: String, accept: @escaping @Sendable (Element) -> Void) -> any Disposable {
        subscribe(onNext: accept, onError: { error in reportMisuse("Binding error to \(name): \(error)") })
    }
}

/// Forwards every event to several observers (or to observers of optional elements), in order.
/// TellerRx calls `on(_:)` serially, so the observers are too.
private final class BindObserver<Element, Target: ObserverType>: ObserverType {
    private let targets: [Target]
    private let convert: (Element) -> Target.Element

    init(_ targets: [Target], convert: @escaping (Element) -> Target.Element) {
        self.targets = targets
        self.convert = convert
    }

    func onNext(_ element: Element) {
        let converted = convert(element)
        for target in targets {
            target.onNext(converted)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            for target in targets {
                target.on(.error(error))
            }
        case .completed:
            for target in targets {
                target.on(.completed)
            }
        }
    }
}

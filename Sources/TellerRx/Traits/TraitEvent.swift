/// What the trait event types ``MaybeEvent`` and ``CompletableEvent`` have in common, so one
/// `create` producer and one `subscribe` observer serve both traits. `Single` has its own
/// (SingleCreate.swift, SingleCallbackObserver.swift): it is the hot one, and this indirection
/// costs metadata lookups per event in generic code.
protocol TraitEvent: SendableMetatype {
    associatedtype Element

    /// The trait's name for misuse reports ("Maybe", "Completable").
    static var traitName: String { get }

    /// This event in the widest grammar: success, error or empty completion.
    var maybeEvent: MaybeEvent<Element> { get }

    /// The event for a success with `element`.
    static func success(element: Element) -> Self

    /// The event for a failure with `error`.
    static func failure(error: any Error) -> Self

    /// The event for a completion without an element, or `nil` where the trait forbids it.
    static var emptyCompletion: Self? { get }
}

extension MaybeEvent: TraitEvent {
    static var traitName: String { "Maybe" }

    var maybeEvent: MaybeEvent<Element> { self }

    static func success(element: Element) -> MaybeEvent { .success(element) }

    static func failure(error: any Error) -> MaybeEvent { .error(error) }

    static var emptyCompletion: MaybeEvent? { .completed }
}

extension CompletableEvent: TraitEvent {
    typealias Element = Never

    static var traitName: String { "Completable" }

    var maybeEvent: MaybeEvent<Never> {
        switch self {
        case .error(let error): .error(error)
        case .completed: .completed
        }
    }

    static func success(element: Never) -> CompletableEvent {}

    static func failure(error: any Error) -> CompletableEvent { .error(error) }

    static var emptyCompletion: CompletableEvent? { .completed }
}

/// The observable behind `Maybe.create` and `Completable.create`: runs the
/// user's subscribe closure with a trait observer that turns trait events into Rx events.
final class TraitCreateProducer<Event: TraitEvent>: Producer<Event.Element>, @unchecked Sendable
where Event.Element: Sendable {
    // @unchecked: `subscribeHandler` is immutable; like `Observable.create`'s, it may capture
    // non-Sendable state by design and is only called on the subscribing thread.
    typealias SubscribeHandler = (@escaping @Sendable (Event) -> Void) -> any Disposable

    private let subscribeHandler: SubscribeHandler

    init(_ subscribeHandler: @escaping SubscribeHandler) {
        self.subscribeHandler = subscribeHandler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Event.Element {
        let sink = TraitCreateSink<Event, Observer>(observer: observer, downstream: downstream)
        let subscription = subscribeHandler { event in sink.on(event) }
        sink.setSubscription(subscription)
        return sink
    }
}

/// Enforces the one-event grammar of a created trait: the first event wins, anything after
/// it is dropped and reported in debug builds.
private final class TraitCreateSink<Event: TraitEvent, Observer: ObserverType>: Sink<Observer>, @unchecked Sendable
where Observer.Element == Event.Element {
    // @unchecked: `isStopped` is atomic.
    private let isStopped = AtomicState(false)

    func on(_ event: Event) {
        if !isStopped.set() {
            reportMisuse(
                "\(Event.traitName).create sent \(event.maybeEvent) after the \(Event.traitName) ended; it was dropped."
            )
            return
        }
        switch event.maybeEvent {
        case .success(let element):
            forwardOn(.next(element))
            forwardOn(.completed)
        case .error(let error):
            forwardOn(.error(error))
        case .completed:
            forwardOn(.completed)
        }
        dispose()
    }
}

/// The observer behind the traits' `subscribe` methods: turns the Rx events of the trait's
/// observable back into one trait event and calls `handler` once.
final class TraitSubscribeObserver<Event: TraitEvent>: ObserverType, @unchecked Sendable {
    // @unchecked: `handler` is immutable; `isStopped` is atomic.
    typealias Element = Event.Element

    private let handler: @Sendable (Event) -> Void
    private let isStopped = AtomicState(false)

    init(_ handler: @escaping @Sendable (Event) -> Void) {
        self.handler = handler
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    func on(_ event: TellerRx.Event<Element>) {
        // A success arrives as `next` then `completed`; the `next` is the trait event and the
        // `completed` that follows it is expected, so it is dropped silently.
        if !isStopped.set() {
            if case .next = event {
                reportMisuse("A \(Event.traitName) sent more than one element; the extra element was dropped.")
            }
            return
        }
        switch event {
        case .next(let element):
            handler(.success(element: element))
        case .error(let error):
            handler(.failure(error: error))
        case .completed:
            if let completion = Event.emptyCompletion {
                handler(completion)
            } else {
                reportMisuse("A \(Event.traitName) completed without an element; delivering RxError.noElements.")
                handler(.failure(error: RxError.noElements))
            }
        }
    }
}

extension ObservableType {
    /// Creates the observable with `observableFactory` anew for each subscriber, when it
    /// subscribes.
    ///
    /// `observableFactory` runs on the subscribing thread, once per subscription. If it throws,
    /// the subscriber receives that error. Like `create`'s closure, it is not required to be
    /// `@Sendable`, so it may capture non-`Sendable` values (code ported from RxSwift often
    /// does): TellerRx only ever calls it from `subscribe`.
    ///
    /// ```swift
    /// let now = Observable<Date>.deferred { .just(Date()) }
    /// // Each subscriber gets the time it subscribed, not the time `now` was made.
    /// ```
    ///
    /// - Parameter observableFactory: Makes the sequence for one subscriber.
    /// - Returns: An observable whose subscribers each get a sequence made for them.
    public static func deferred(
        _ observableFactory: @escaping () throws -> Observable<Element>
    ) -> Observable<Element> {
        DeferredProducer(observableFactory: observableFactory)
    }
}

private final class DeferredProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable; `observableFactory` may capture non-Sendable state by design and
    // is only called on the subscribing thread.
    typealias Factory = () throws -> Observable<Element>

    let observableFactory: Factory

    init(observableFactory: @escaping Factory) {
        self.observableFactory = observableFactory
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        // A plain sink is enough: it forwards and frees the chain after a terminal event.
        let sink = Sink(observer: observer, downstream: downstream)
        do {
            let source = try observableFactory()
            source.subscribe(sink.forwarder(), upstreamOf: sink)
            return sink
        } catch {
            sink.forwardTerminal(.error(error))
            return sink
        }
    }
}

/// The base of every operator's observable: `subscribe` creates the operator's sink through
/// `run(_:cancel:)` and returns a ``SinkDisposer`` that disposes the sink and its upstream
/// subscription together, even when disposal races with the subscription being set up.
///
/// Operators that subscribe upstream once may instead override `subscribe` with a
/// ``DisposerSink`` (one object per subscription instead of two; see Map.swift).
/// `@usableFromInline` so operators can create their producer from an `@inlinable` method.
@usableFromInline
class Producer<Element: Sendable>: Observable<Element>, @unchecked Sendable {
    // @unchecked: producers keep only immutable configuration.

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let disposer = SinkDisposer()
        let (sink, subscription) = run(observer, cancel: disposer)
        disposer.setSinkAndSubscription(sink: sink, subscription: subscription)
        return disposer
    }

    /// Creates the sink for `observer` and subscribes it upstream.
    ///
    /// - Returns: The sink (disposed to stop forwarding) and the upstream subscription.
    func run<Observer: ObserverType>(
        _ observer: Observer,
        cancel: any Cancelable
    ) -> (sink: any Disposable, subscription: any Disposable) where Observer.Element == Element {
        preconditionFailure("Producer.run must be overridden by \(type(of: self))")
    }
}

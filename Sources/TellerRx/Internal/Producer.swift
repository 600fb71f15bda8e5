/// The base of every operator's observable.
///
/// `subscribe` runs ``run(_:downstream:)`` inside the current thread's trampoline, the way
/// every RxSwift producer does, so work that sources schedule on ``CurrentThreadScheduler``
/// (`of`, `from`, `range`, `repeatElement`) starts only once the whole chain is wired.
/// Together with each ``Sink`` handing itself to the sink downstream of it before it
/// subscribes upstream, an operator that ends early (`take`, `first`, a throwing closure)
/// stops a synchronous source at once instead of letting it run on into disposed sinks.
///
/// Cost, per subscribe only: one thread-local read; for the outermost subscribe on a thread,
/// also one trampoline entry. Nothing per event.
///
/// `@usableFromInline` so operators can create their producer from an `@inlinable` method.
@usableFromInline
class Producer<Element: Sendable>: Observable<Element>, @unchecked Sendable {
    // @unchecked: producers keep only immutable configuration.

    override final func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        guard CurrentThreadScheduler.isScheduleRequired else {
            return run(observer, downstream: nil)
        }
        return runTrampolined(observer, downstream: nil)
    }

    override final func subscribe<Observer: ObserverType>(
        _ observer: Observer,
        upstreamOf downstream: SubscriptionSlot
    ) where Observer.Element == Element {
        guard CurrentThreadScheduler.isScheduleRequired else {
            _ = run(observer, downstream: downstream)
            return
        }
        _ = runTrampolined(observer, downstream: downstream)
    }

    /// Out of line on purpose: a function that builds the generic state tuple gets its stack
    /// space sized at entry, with metadata lookups, even when this path is not taken.
    @inline(never)
    private func runTrampolined<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        // No trampoline runs here, so `schedule` runs the action at once, on this thread, and
        // returns its disposable; the work the chain scheduled on it runs right after.
        CurrentThreadScheduler.instance.schedule(UncheckedSendable((self, observer, downstream))) { state in
            state.value.0.run(state.value.1, downstream: state.value.2)
        }
    }

    /// Creates the sink for `observer`, with `downstream` so the sink hands itself over before
    /// it subscribes upstream, and subscribes it.
    ///
    /// - Returns: The subscription: the sink, which disposes its upstream with itself.
    func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        preconditionFailure("Producer.run must be overridden by \(type(of: self))")
    }
}

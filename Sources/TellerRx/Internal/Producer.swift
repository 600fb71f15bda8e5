/// The base of every operator's observable.
///
/// `subscribe` runs ``run(_:downstream:)`` inside the current thread's trampoline, the way
/// every RxSwift producer does, so work that sources schedule on ``CurrentThreadScheduler``
/// (`of`, `from`, `range`, `repeatElement`) starts only once the whole chain is wired.
/// Together with each ``Sink`` handing itself to the sink downstream of it before it
/// subscribes upstream, an operator that ends early (`take`, `first`, a throwing closure)
/// stops a synchronous source at once instead of letting it run on into disposed sinks.
///
/// Cost, per subscribe only: operators subscribing upstream from their `run` (inside the
/// trampoline) go straight to `run`; the outermost subscribe, and later ones (inner sequences,
/// resubscriptions), read one thread-local and enter the trampoline when none runs (one small
/// allocation). Nothing per event.
///
/// `@usableFromInline` so operators can create their producer from an `@inlinable` method.
@usableFromInline
class Producer<Element: Sendable>: Observable<Element>, @unchecked Sendable {
    // @unchecked: producers keep only immutable configuration.

    /// Returns a slot holding the chain's last sink, not the sink itself: disposing the slot,
    /// or the chain ending itself, lets go of the sink, and so of `observer` and what its
    /// closures captured, even while the caller keeps the subscription (an owner that keeps
    /// its subscription and is captured by its closures would otherwise never be freed).
    override final func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let subscription = SubscriptionSlot()
        subscription.markTopLevel()
        if CurrentThreadScheduler.isScheduleRequired {
            _ = runTrampolined(observer, downstream: subscription)
        } else {
            _ = run(observer, downstream: subscription)
        }
        return subscription
    }

    override final func subscribeEnteringTrampoline<Observer: ObserverType>(
        _ observer: Observer,
        upstreamOf downstream: SubscriptionSlot
    ) where Observer.Element == Element {
        guard CurrentThreadScheduler.isScheduleRequired else {
            _ = run(observer, downstream: downstream)
            return
        }
        _ = runTrampolined(observer, downstream: downstream)
    }

    /// Runs `run` as the first action of this thread's trampoline, so what the chain schedules
    /// on ``CurrentThreadScheduler`` runs right after it, on this thread. Out of line, so the
    /// common path (a trampoline already runs) stays small.
    @inline(never)
    private func runTrampolined<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        // Through a pointer: a closure that captures a value of generic type gets a context of
        // dynamic size, which is allocated on the heap even when the closure does not escape.
        withUnsafePointer(to: observer) { observer in
            enterTrampoline { self.run(observer.pointee, downstream: downstream) }
        }
    }

    /// Creates the sink for `observer`, with `downstream` so the sink hands itself over before
    /// it subscribes upstream, and subscribes it.
    ///
    /// - Returns: The subscription: the sink, which disposes its upstream with itself.
    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        preconditionFailure("Producer.run must be overridden by \(type(of: self))")
    }
}

/// Runs `body` as the first action of this thread's trampoline; only when none runs, so
/// `schedule` calls it at once and it never escapes.
///
/// Costs one 32-byte allocation (`withoutActuallyEscaping`'s wrapper) and no generic-metadata
/// lookup: `body`'s context lives on the caller's stack, `schedule` is specialized for a
/// concrete state, and the action captures nothing. (A generic state tuple cost four metadata
/// lookups per entry; a closure literal passed straight to `withoutActuallyEscaping`, a heap
/// context of its own besides.)
private func enterTrampoline(_ body: () -> any Disposable) -> any Disposable {
    withoutActuallyEscaping(body) { body in
        CurrentThreadScheduler.instance.schedule(UncheckedSendable(body)) { $0.value() }
    }
}

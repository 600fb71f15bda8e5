/// What every sink that flattens an outer sequence of inner sequences does the same way
/// (``MergeSink`` for `merge`, `concat`, `flatMap`, `flatMapFirst`, `concatMap`; the
/// `switchLatest` sink for `switchLatest` and `flatMapLatest`): observe the outer sequence, end
/// on its error, note its completion, and tear the outer and inner subscriptions down once.
///
/// A subclass overrides ``onNext(_:)``, ``hasRunningInners`` and ``disposeInners()``. Locking and
/// the order of events are ``LockedSink``'s: the terminal event is decided under ``lock`` and
/// sent, and everything disposed, once it is released.
class FlatteningSink<SourceElement: Sendable, Observer: ObserverType>: LockedSink<Observer>, ObserverType,
    @unchecked Sendable
{
    // @unchecked: `isOuterDone` is guarded by `lock`; `outer` and `isTornDown` synchronise
    // themselves.
    /// The subscription to the outer sequence.
    final let outer = SubscriptionSlot()
    private final let tornDown = AtomicState(false)
    /// Whether the outer sequence has completed. Guarded by `lock`, which is also why dynamic
    /// exclusivity checks are switched off.
    @exclusivity(unchecked) final var isOuterDone = false

    /// Whether ``dispose()`` has run; a subclass must not keep anything that holds it once it
    /// has.
    final var isTornDown: Bool { tornDown.isSet }

    final func on(_ event: Event<SourceElement>) {
        // Each case in its own function: in unspecialized generic code every function that
        // builds or inspects an `Event` of another element type pays a metadata lookup, so the
        // per-element path must not also carry the terminal paths' lookups.
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            outerFailed(error)
        case .completed:
            outerCompleted()
        }
    }

    /// An element of the outer sequence (which sends them one at a time). Overridden.
    func onNext(_ element: SourceElement) {
        preconditionFailure("FlatteningSink.onNext(_:) must be overridden")
    }

    /// Called under `lock`: whether any inner sequence is running or waiting, so that the
    /// outer sequence's completion does not complete the sink yet. Overridden.
    var hasRunningInners: Bool {
        preconditionFailure("FlatteningSink.hasRunningInners must be overridden")
    }

    /// Disposes the inner subscriptions, once, from ``dispose()``. Overridden.
    func disposeInners() {
        preconditionFailure("FlatteningSink.disposeInners() must be overridden")
    }

    /// Ends the sink with `error`, from the outer sequence or a selector.
    @inline(never)
    final func outerFailed(_ error: any Error) {
        lock.withLock { fail(error) }
        finishIfStopped()
    }

    @inline(never)
    private final func outerCompleted() {
        lock.withLock {
            isOuterDone = true
            if !hasRunningInners {
                complete()
            }
        }
        // The outer subscription has ended either way; inner sequences may still run.
        outer.dispose()
        finishIfStopped()
    }

    override final func dispose() {
        super.dispose()
        guard tornDown.set() else { return }
        outer.dispose()
        disposeInners()
    }
}

import Synchronization

// State bits. Plain constants, not static members: a static member of a generic class needs
// the class's type metadata, which generic code looks up at run time on every use.
private let upstreamSetBit = 1
private let disposedBit = 2
private let stoppedBit = 4

/// A sink that is also its own subscription, for operators that subscribe upstream once: the
/// operator's `subscribe` creates the sink, subscribes it upstream, hands the upstream
/// subscription to ``setUpstream(_:)`` and returns the sink itself as the subscription.
///
/// Compared with ``Sink`` under ``Producer/subscribe(_:)`` this saves one object per operator per
/// subscription (the ``SinkDisposer``) and one atomic operation per disposal, which is most of
/// the cost of building and tearing down a chain. Disposal semantics are the same: `dispose()`
/// stops forwarding at once and disposes the upstream subscription exactly once, now or as
/// soon as it is set (a synchronous source may end the sink from inside `subscribe`).
///
/// Element paths should use ``forwardNext(_:)`` and implement ``ObserverType/onNext(_:)``:
/// in generic code, building or switching over an `Event` costs a type-metadata lookup.
class DisposerSink<Observer: ObserverType>: Cancelable, @unchecked Sendable {
    // @unchecked: `observer` is immutable; `upstream` is written once before the `upstreamSetBit`
    // release and then read (and cleared) only by the one caller that observes both bits.

    // `state` and `upstream` come before `observer`, whose size depends on the generic
    // parameter: fields after it sit at offsets read from the type metadata at run time.
    private let state = Atomic<Int>(0)
    /// Unchecked exclusivity: the state bits already make every access exclusive (see above),
    /// and the dynamic check costs more than the rest of setting and disposing it.
    @exclusivity(unchecked)
    private var upstream: (any Disposable)?
    final let observer: Observer

    init(observer: Observer) {
        self.observer = observer
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    /// Whether this sink has been disposed (it then forwards nothing).
    final var isDisposed: Bool {
        state.load(ordering: .relaxed) & disposedBit != 0
    }

    /// Sends `element` downstream unless this sink is disposed, without building an `Event`.
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        if state.load(ordering: .relaxed) & disposedBit != 0 { return }
        observer.onNext(element)
    }

    /// Sends `event` downstream unless this sink is disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if state.load(ordering: .relaxed) & disposedBit != 0 { return }
        observer.on(event)
    }

    /// Sends `element` downstream unless this sink is disposed or was marked stopped with
    /// ``markStopped()``; returns `false` only in the second case, so the caller can report an
    /// element sent after a terminal event. One load for both checks.
    @inline(__always)
    final func forwardNextUnlessStopped(_ element: Observer.Element) -> Bool {
        let state = state.load(ordering: .relaxed)
        if state & (disposedBit | stoppedBit) != 0 { return state & stoppedBit == 0 }
        observer.onNext(element)
        return true
    }

    /// Marks the source as stopped (it sent a terminal event) for sinks that enforce the event
    /// grammar, such as `Observable.create`'s.
    ///
    /// - Returns: Whether it was already stopped.
    final func markStopped() -> Bool {
        state.bitwiseOr(stoppedBit, ordering: .relaxed).oldValue & stoppedBit != 0
    }

    /// Sends `error` downstream, then disposes. Out of line on purpose: a function that builds
    /// an `Event` gets its stack space sized at entry, with a metadata lookup, even when the
    /// error path is not taken; keeping it here keeps element paths free of that cost.
    @inline(never)
    final func forwardErrorAndDispose(_ error: any Error) {
        forwardOn(.error(error))
        dispose()
    }

    /// Records the upstream subscription, or disposes it at once if this sink is already
    /// disposed. Call once.
    final func setUpstream(_ subscription: consuming any Disposable) {
        upstream = subscription
        let previous = state.bitwiseOr(upstreamSetBit, ordering: .acquiringAndReleasing).oldValue
        assert(previous & upstreamSetBit == 0, "setUpstream called twice")
        if previous & disposedBit != 0 {
            disposeUpstream()
        }
    }

    /// Stops forwarding and disposes the upstream subscription, once. Safe from any thread.
    func dispose() {
        let previous = state.bitwiseOr(disposedBit, ordering: .acquiringAndReleasing).oldValue
        if previous & (disposedBit | upstreamSetBit) == upstreamSetBit {
            disposeUpstream()
        }
    }

    private func disposeUpstream() {
        upstream.take()?.dispose()
    }
}

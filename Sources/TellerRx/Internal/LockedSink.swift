/// A sink fed by several sources, or by an outer sequence and its inner ones, whose events one
/// recursive lock serializes (RxSwift's design): the flat-map family, `switchLatest`, `zip` and
/// `combineLatest`. Its terminal event is decided under the lock and sent after it is released,
/// by the thread that decided it (see ``Sink/stopForwarding(recording:in:)``), so no observer's
/// completion and no source's disposal runs under the lock.
///
/// A subclass guards its own state with ``lock``, calls ``fail(_:)`` or ``complete()`` under
/// it, and ``finishIfStopped()`` once it released it.
class LockedSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: `pendingTerminal` is only touched under `lock`.
    /// Serializes the sources' events and guards the subclass's state.
    final let lock = Lock(recursive: true)
    /// How the sink ends, decided under `lock` and sent after it (no dynamic exclusivity
    /// checks: the lock already makes every access exclusive).
    @exclusivity(unchecked) private final var pendingTerminal = PendingTerminal()

    /// Called under `lock`: ends with `error`, sent once the lock is released.
    @inline(never)
    final func fail(_ error: any Error) {
        stopForwarding(recording: .failed(error), in: &pendingTerminal)
    }

    /// Called under `lock`: ends with completion, sent once the lock is released.
    @inline(never)
    final func complete() {
        stopForwarding(recording: .completed, in: &pendingTerminal)
    }

    /// Call after releasing `lock`: if this thread stopped the sink, sends the terminal event
    /// and disposes every source.
    @inline(__always)
    final func finishIfStopped() {
        if isDisposed { finishIfStoppedHere() }
    }

    /// ``finishIfStopped()`` once the sink reports ``SubscriptionSlot/isDisposed``.
    @inline(never)
    final func finishIfStoppedHere() {
        finish(lock.withLock { pendingTerminal.takeIfRecordedHere() })
    }
}

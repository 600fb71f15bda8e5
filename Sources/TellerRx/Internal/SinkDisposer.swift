import Synchronization

/// Disposes a sink and its upstream subscription exactly once, whichever comes first:
/// `dispose()` or the end of `run`. A sink may dispose it from inside `run` (a synchronous
/// source that completes at once); then the pair is disposed as soon as it is set.
final class SinkDisposer: Cancelable, @unchecked Sendable {
    // @unchecked: `sink` and `subscription` are written once before the `setBit` release and
    // read (then cleared) only by the one caller that observes both bits.
    private static let setBit = 1
    private static let disposedBit = 2

    private let state = Atomic<Int>(0)
    // Unchecked exclusivity: the state bits already make every access exclusive, and the
    // dynamic check costs more than the rest of setting and disposing them.
    @exclusivity(unchecked)
    private var sink: (any Disposable)?
    @exclusivity(unchecked)
    private var subscription: (any Disposable)?

    init() {
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    var isDisposed: Bool {
        state.load(ordering: .acquiring) & SinkDisposer.disposedBit != 0
    }

    func setSinkAndSubscription(sink: consuming any Disposable, subscription: consuming any Disposable) {
        self.sink = sink
        self.subscription = subscription
        let previous = state.bitwiseOr(SinkDisposer.setBit, ordering: .acquiringAndReleasing).oldValue
        assert(previous & SinkDisposer.setBit == 0, "setSinkAndSubscription called twice")
        if previous & SinkDisposer.disposedBit != 0 {
            disposePair()
        }
    }

    func dispose() {
        let previous = state.bitwiseOr(SinkDisposer.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & SinkDisposer.disposedBit == 0 else { return }
        if previous & SinkDisposer.setBit != 0 {
            disposePair()
        }
    }

    private func disposePair() {
        let sink = self.sink.take()
        let subscription = self.subscription.take()
        sink?.dispose()
        subscription?.dispose()
    }
}

/// Holds one replaceable disposable: setting a new one disposes the previous one.
///
/// Once this is disposed, any disposable set afterwards is disposed at once. Setting and
/// disposing are lock-free: this is the serial slot `switchLatest` and `concat` keep their
/// current subscription in (an internal `SerialSlot`), each disposable set held in a slot of its
/// own. Only reads take a lock, among themselves.
public final class SerialDisposable: Cancelable {
    private let slot = SerialSlot()
    /// Held by a read while it has the current disposable out of the slot, so that a second
    /// read at that moment waits for it to be put back instead of finding none. Setting and
    /// disposing never take it.
    private let reading = Lock()

    /// Creates an empty serial disposable.
    public init() {}

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        slot.isDisposed
    }

    /// The current inner disposable. Setting it disposes the previous one (on the setting thread),
    /// or disposes the new one at once if this is already disposed.
    ///
    /// Reading it while another thread sets it or disposes this is safe: if the other thread
    /// replaces the disposable being read, the reading thread disposes that one before the read
    /// returns. Reads on several threads at once take turns, and each sees the disposable set.
    public var disposable: any Disposable {
        get {
            reading.withLock {
                slot.withCurrent { current in
                    // Only ever holds the slots made below.
                    current.map { unsafeDowncast($0, to: HeldDisposable.self).disposable }
                }
            } ?? Disposables.create()
        }
        set {
            slot.replace(with: HeldDisposable(newValue))
        }
    }

    /// Disposes the current inner disposable and every later one. Safe from any thread.
    public func dispose() {
        slot.dispose()
    }
}

/// A disposable set into a ``SerialDisposable``: a slot that disposes it, and keeps it for the
/// getter.
private final class HeldDisposable: SubscriptionSlot, @unchecked Sendable {
    // @unchecked: `disposable` is immutable; the slot's state is atomic.
    let disposable: any Disposable

    init(_ disposable: any Disposable) {
        self.disposable = disposable
        super.init()
        setSubscription(disposable)
    }
}

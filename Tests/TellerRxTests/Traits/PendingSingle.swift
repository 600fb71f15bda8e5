@_spi(TellerInternals) import TellerRx

/// A `Single.create` that keeps the callback of its latest subscription, so a test can deliver
/// the outcome later (as a Teller refresh does), and logs when the disposable it returned is
/// disposed.
final class PendingSingle: Sendable {
    let log: TraitEventLog
    private let callback = Locked<(@Sendable (SingleEvent<Int>) -> Void)?>(nil)

    init(log: TraitEventLog = TraitEventLog()) {
        self.log = log
    }

    var single: Single<Int> {
        Single.create { observer in
            self.callback.withLock { $0 = observer }
            return Disposables.create { self.log.record("cancelled") }
        }
    }

    /// Calls the kept callback, outside any lock, so the subscriber may re-enter.
    func send(_ event: SingleEvent<Int>) {
        callback.value?(event)
    }

    /// Drops the kept callback, as a finished request does.
    func forget() {
        callback.withLock { $0 = nil }
    }
}

@_spi(TellerInternals) import TellerRx

/// One `refresh(force:)` or `refreshIfNoCache()` call whose `Single` is subscribed: a waiter.
/// Its machine keeps it, in the flight wait it joined, until it answers it or the call leaves
/// (its `Single` is disposed). The object is the waiter's identity: nothing else names it.
///
/// A call is answered at most once, and never after it left.
final class RefreshCall: Disposable, Sendable {

    /// What was asked for.
    enum Kind: Sendable {
        case refresh(force: Bool)
        case ifNoCache
    }

    let kind: Kind
    /// The `Single`'s observer, kept as it is: wrapping it in a closure would cost an allocation
    /// per call.
    private let single: Single<RefreshResult>.SingleObserver
    /// Set by the first of ``answer(_:)`` and ``dispose()``: the other does nothing then.
    private let isDone = AtomicState(false)
    /// Held strongly: the call's `Single` holds its engine anyway, and a weak reference would
    /// cost every call a side-table allocation.
    private let owner: (any RefreshCallOwner)?

    init(
        _ kind: Kind,
        single: @escaping Single<RefreshResult>.SingleObserver,
        owner: (any RefreshCallOwner)? = nil
    ) {
        self.kind = kind
        self.single = single
        self.owner = owner
    }

    /// Answers the call, unless it was answered or left already.
    func answer(_ result: RefreshResult) {
        guard isDone.set() else { return }
        single(.success(result))
    }

    /// The call's `Single` was disposed: it stops waiting. Its owner hears of it, unless it was
    /// answered already (a `Single` is disposed after it succeeds, too).
    func dispose() {
        guard isDone.set() else { return }
        owner?.refreshCallLeft(self)
    }
}

/// Whoever keeps ``RefreshCall``s: hears of those that leave before they are answered.
protocol RefreshCallOwner: AnyObject, Sendable {
    func refreshCallLeft(_ call: RefreshCall)
}

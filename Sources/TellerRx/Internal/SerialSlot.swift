/// Stands for "disposed" in ``SerialSlot``.
private let serialSlotDisposedMarker = SubscriptionSlot()

/// Holds the current one of a series of subscription slots (`switchLatest`'s latest inner
/// sequence, `concat`'s current source, the public ``SerialDisposable``'s disposables):
/// replacing it disposes the previous one, and once disposed it disposes whatever is offered.
/// Lock-free, so disposal from another thread never waits for an operator's delivery lock.
final class SerialSlot: Disposable, @unchecked Sendable {
    // @unchecked: all state is in the atomic cell.
    /// The current slot (retained), or the marker once disposed.
    private let current = AtomicState<Unmanaged<SubscriptionSlot>?>(nil)

    init() {}

    deinit {
        if let held = current.load(), !SerialSlot.isMarker(held) {
            held.release()
        }
    }

    private static var marker: Unmanaged<SubscriptionSlot> {
        Unmanaged.passUnretained(serialSlotDisposedMarker)
    }

    private static func isMarker(_ value: Unmanaged<SubscriptionSlot>) -> Bool {
        value.toOpaque() == marker.toOpaque()
    }

    /// Makes `slot` the current one and disposes the previous one. Returns `false`, having
    /// disposed `slot`, if this is already disposed.
    @discardableResult
    func replace(with slot: SubscriptionSlot) -> Bool {
        let new = Unmanaged.passRetained(slot)
        var expected = current.load()
        while true {
            if let expected, SerialSlot.isMarker(expected) {
                new.release()
                slot.dispose()
                return false
            }
            let (exchanged, original) = current.compareExchange(
                expected: expected,
                desired: new
            )
            if exchanged {
                expected?.takeRetainedValue().dispose()
                return true
            }
            expected = original
        }
    }

    /// Disposes the current slot, leaving none (unless this is disposed already).
    func disposeCurrent() {
        takeCurrent()?.dispose()
    }

    /// Whether ``dispose()`` has been called.
    var isDisposed: Bool {
        guard let present = current.load() else { return false }
        return SerialSlot.isMarker(present)
    }

    /// Calls `body` with the current slot, or `nil` if there is none or this is disposed.
    ///
    /// The slot is taken out for the call, so that no other thread can release it meanwhile,
    /// and put back after it. If another thread replaced it or disposed this meanwhile (finding
    /// no slot to dispose), this thread disposes it instead, before returning.
    func withCurrent<Result>(_ body: (SubscriptionSlot?) -> Result) -> Result {
        guard let slot = takeCurrent() else { return body(nil) }
        let result = body(slot)
        putBack(slot)
        return result
    }

    /// Takes the current slot out, leaving none (unless this is disposed already).
    @inline(__always)
    private func takeCurrent() -> SubscriptionSlot? {
        var expected = current.load()
        while let present = expected, !SerialSlot.isMarker(present) {
            let (taken, original) = current.compareExchange(
                expected: present,
                desired: nil
            )
            if taken { return present.takeRetainedValue() }
            expected = original
        }
        return nil
    }

    /// Puts back the slot ``withCurrent(_:)`` took out, unless it was replaced meanwhile.
    private func putBack(_ slot: SubscriptionSlot) {
        let held = Unmanaged.passRetained(slot)
        let (restored, _) = current.compareExchange(
            expected: nil,
            desired: held
        )
        if !restored {
            held.release()
            slot.dispose()
        }
    }

    /// Disposes the current slot and every later one. Only the first call acts.
    func dispose() {
        if let previous = current.exchange(SerialSlot.marker),
            !SerialSlot.isMarker(previous)
        {
            previous.takeRetainedValue().dispose()
        }
    }
}

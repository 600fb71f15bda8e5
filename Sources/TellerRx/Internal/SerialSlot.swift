import Synchronization

/// Stands for "disposed" in ``SerialSlot``.
private let serialSlotDisposedMarker = SubscriptionSlot()

/// Holds the current one of a series of subscription slots (`switchLatest`'s latest inner
/// sequence, `concat`'s current source): replacing it disposes the previous one, and once
/// disposed it disposes whatever is offered. Lock-free, so disposal from another thread never
/// waits for an operator's delivery lock.
final class SerialSlot: Disposable, @unchecked Sendable {
    // @unchecked: all state is in the atomic cell.
    /// The current slot (retained), or the marker once disposed.
    private let current = Atomic<Unmanaged<SubscriptionSlot>?>(nil)

    init() {}

    deinit {
        if let held = current.load(ordering: .acquiring), !SerialSlot.isMarker(held) {
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
        var expected = current.load(ordering: .acquiring)
        while true {
            if let expected, SerialSlot.isMarker(expected) {
                new.release()
                slot.dispose()
                return false
            }
            let (exchanged, original) = current.compareExchange(
                expected: expected,
                desired: new,
                ordering: .acquiringAndReleasing
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
        var expected = current.load(ordering: .acquiring)
        while let present = expected, !SerialSlot.isMarker(present) {
            let (exchanged, original) = current.compareExchange(
                expected: present,
                desired: nil,
                ordering: .acquiringAndReleasing
            )
            if exchanged {
                present.takeRetainedValue().dispose()
                return
            }
            expected = original
        }
    }

    /// Disposes the current slot and every later one. Only the first call acts.
    func dispose() {
        if let previous = current.exchange(SerialSlot.marker, ordering: .acquiringAndReleasing),
            !SerialSlot.isMarker(previous)
        {
            previous.takeRetainedValue().dispose()
        }
    }
}

/// The observer of one source of a multi-source operator (`zip`, `combineLatest`), and that
/// source's subscription slot.
///
/// The sink creates every source's observer first, makes them its subscription, and only then
/// subscribes them in order: so disposing the sink while one source is still sending
/// synchronously (a `take` downstream ending, another source failing) reaches that source at
/// once, as it does for single-source operators, and no later source is subscribed.
class MultiSourceObserver: SubscriptionSlot, @unchecked Sendable {
    // @unchecked: no state beyond the slot's.

    /// Subscribes this observer to the source that `input` describes (the input it was made
    /// from), with itself as the slot.
    func subscribe(to input: MultiSourceInput) {
        preconditionFailure("MultiSourceObserver.subscribe(to:) must be overridden")
    }

    /// Subscribes to every input in order, until `sink` stops: the next of `slots` (all
    /// ``MultiSourceObserver``s, one per input that is not scalar, in order) to an input that is
    /// not scalar, and `scalarArrived` with the index of one that is (see
    /// ``MultiSourceInput/isScalar``).
    static func subscribeAll<Slots: Sequence<SubscriptionSlot>>(
        _ slots: Slots,
        to inputs: [MultiSourceInput],
        until sink: SubscriptionSlot,
        scalarArrived: (Int) -> Void
    ) {
        var slots = slots.makeIterator()
        for index in inputs.indices {
            if sink.isDisposed { return }
            if inputs[index].isScalar {
                scalarArrived(index)
            } else {
                guard let slot = slots.next() else {
                    preconditionFailure("subscribeAll: fewer slots than inputs that are not scalar")
                }
                // The sink built `slots` from observers only; unchecked, as a checked cast
                // would look up the observer class's metadata.
                unsafeDowncast(slot, to: MultiSourceObserver.self).subscribe(to: inputs[index])
            }
        }
    }
}

/// An observer of one inner sequence that a multi-source sink creates through a metatype it
/// fetched once (see `MergeSink.innerObserverType`), passing itself as `parent` and a `tag`
/// of its choosing.
///
/// Why: in unspecialized generic code (all of an operator chain, which is reached through
/// virtual `subscribe` calls), naming a generic observer type costs a runtime metadata lookup,
/// and passing it to a generic `subscribe` a second one for its conformance. A metatype opened
/// from an existential carries both, so each inner subscription skips those lookups.
///
/// `parent` arrives as an unretained opaque pointer (the caller keeps the parent alive for the
/// call): turning an `AnyObject` back into the generic parent type with a cast would itself
/// look the parent's metadata up on every call.
protocol InnerObserverCreating<Element>: SubscriptionSlot, ObserverType {
    init(parent: UnsafeMutableRawPointer, tag: UInt64)

    /// Makes a finished observer, referenced by nothing but its sink, as good as new.
    func prepareForReuse()
}

extension InnerObserverCreating {
    func prepareForReuse() {
        resetSubscription()
    }
}

/// One inner subscription of a merging sink, with what ``InnerSubscriptions`` needs to track it.
class InnerSubscription: SubscriptionSlot, @unchecked Sendable {
    // @unchecked: `membershipIndex` is guarded by the owning `InnerSubscriptions` lock;
    // `registration` is atomic.
    fileprivate static let registeringBit = 1
    fileprivate static let endedBit = 2

    /// Settles the race between the subscribing thread registering this subscription and the
    /// inner sequence ending, possibly on another thread, possibly before `subscribe` returned.
    fileprivate let registration = AtomicState(0)
    @exclusivity(unchecked) fileprivate final var membershipIndex = -1

    /// Whether the inner sequence has ended (``InnerSubscriptions/unregister(_:)`` was called).
    final var hasEnded: Bool {
        registration.load() & InnerSubscription.endedBit != 0
    }

    /// Back to "never registered", for reuse; only while nothing else references this.
    final func resetRegistration() {
        registration.store(0)
        membershipIndex = -1
    }
}

/// What ``InnerSubscriptions/register(_:)`` found.
enum InnerRegistration {
    /// The inner sequence ended while being subscribed; nothing is tracked.
    case endedDuringSubscribe
    /// Tracked until it ends or the set is disposed.
    case tracked
    /// The set was already disposed; the subscription has been disposed.
    case refused
}

/// The open inner subscriptions of a merging sink, so that disposing the sink ends them all.
///
/// O(1) insert and remove (swap with the last; no dictionary), a lock of its own, and a
/// one-way switch to "disposed" after which nothing more is tracked. A sink registers each
/// inner subscription before subscribing it (`just` skips both: merging sinks forward its
/// element without subscribing).
struct InnerSubscriptions: Sendable {
    private struct Members {
        var subscriptions: ContiguousArray<InnerSubscription> = []
        var isDisposed = false
    }

    private let members = LockedState(Members())

    /// Starts tracking `subscription` (before it is subscribed), unless it has already ended;
    /// disposes it if the set is already disposed.
    @discardableResult
    func register(_ subscription: InnerSubscription) -> InnerRegistration {
        let previous = subscription.registration.bitwiseOr(
            InnerSubscription.registeringBit
        ).oldValue
        if previous & InnerSubscription.endedBit != 0 { return .endedDuringSubscribe }
        let registration = members.withLock { members -> InnerRegistration in
            // Checked again under the lock: `unregister` takes it too once it saw our bit.
            if subscription.registration.load() & InnerSubscription.endedBit != 0 {
                return .tracked
            }
            guard !members.isDisposed else { return .refused }
            subscription.membershipIndex = members.subscriptions.count
            members.subscriptions.append(subscription)
            return .tracked
        }
        if registration == .refused {
            subscription.dispose()
        }
        return registration
    }

    /// Stops tracking `subscription` because its sequence ended (the caller disposes it).
    func unregister(_ subscription: InnerSubscription) {
        let previous = subscription.registration.bitwiseOr(
            InnerSubscription.endedBit
        ).oldValue
        guard previous & InnerSubscription.registeringBit != 0 else { return }
        members.withLock { members in
            let index = subscription.membershipIndex
            guard !members.isDisposed, index >= 0 else { return }
            subscription.membershipIndex = -1
            let last = members.subscriptions.removeLast()
            if last !== subscription {
                members.subscriptions[index] = last
                last.membershipIndex = index
            }
        }
    }

    /// Disposes every tracked subscription; anything registered later is disposed at once.
    func disposeAll() {
        let subscriptions = members.withLock { members -> ContiguousArray<InnerSubscription> in
            members.isDisposed = true
            defer { members.subscriptions = [] }
            return members.subscriptions
        }
        for subscription in subscriptions {
            subscription.dispose()
        }
    }
}

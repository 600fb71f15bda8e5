import Synchronization

/// One subscriber of a subject: the observer, plus a disposed flag that is checked before
/// every delivery, so a subscriber disposed on the delivering thread gets nothing more even
/// from an emission already in progress.
class SubjectSubscriber<Element>: Disposable, @unchecked Sendable {
    // @unchecked: `disposed` is atomic; `removal` is immutable.
    private let disposed = Atomic<Bool>(false)
    private let removal: @Sendable (SubjectSubscriber<Element>) -> Void

    init(removal: @escaping @Sendable (SubjectSubscriber<Element>) -> Void) {
        self.removal = removal
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    final var isDisposed: Bool {
        disposed.load(ordering: .relaxed)
    }

    /// Delivers `event` unless this subscriber has been disposed.
    @inline(__always)
    final func deliver(_ event: Event<Element>) {
        if disposed.load(ordering: .relaxed) { return }
        on(event)
    }

    func on(_ event: Event<Element>) {
        preconditionFailure("SubjectSubscriber.on must be overridden")
    }

    final func dispose() {
        guard !disposed.exchange(true, ordering: .relaxed) else { return }
        removal(self)
    }
}

/// A subject subscriber holding a concrete observer (no closure in between).
final class ObserverSubjectSubscriber<Observer: ObserverType>: SubjectSubscriber<Observer.Element>,
    @unchecked Sendable
{
    // @unchecked: `observer` is immutable and called serially by the subject.
    private let observer: Observer

    init(observer: Observer, removal: @escaping @Sendable (SubjectSubscriber<Observer.Element>) -> Void) {
        self.observer = observer
        super.init(removal: removal)
    }

    override func on(_ event: Event<Observer.Element>) {
        observer.on(event)
    }
}

/// The subscribers of a subject, in subscription order.
typealias SubjectSubscribers<Element> = ContiguousArray<SubjectSubscriber<Element>>

extension ContiguousArray {
    /// Removes `subscriber` by identity. Linear, which beats hashing for the few subscribers a
    /// subject usually has.
    mutating func remove<Value>(subscriber: SubjectSubscriber<Value>)
    where Element == SubjectSubscriber<Value> {
        if let index = firstIndex(where: { $0 === subscriber }) {
            remove(at: index)
        }
    }
}

/// Serializes a subject's deliveries: an event sent while another is being delivered (from a
/// subscriber, re-entrantly, or from another thread) is queued and delivered by the thread
/// already delivering, after the current event. Subscribers therefore see every event once,
/// in the order the subject accepted them, never overlapping.
struct DeliveryQueue<Element> {
    private(set) var isDelivering = false
    private var pending: [Event<Element>] = []
    private var head = 0

    /// Returns `true` if the caller should deliver `event` itself now; `false` if it was queued.
    mutating func begin(_ event: Event<Element>) -> Bool {
        if isDelivering {
            pending.append(event)
            return false
        }
        isDelivering = true
        return true
    }

    /// The next queued event, or `nil` (and delivery ends) when none is left.
    mutating func next() -> Event<Element>? {
        guard head < pending.count else {
            if !pending.isEmpty {
                pending.removeAll(keepingCapacity: false)
                head = 0
            }
            isDelivering = false
            return nil
        }
        defer { head += 1 }
        return pending[head]
    }
}

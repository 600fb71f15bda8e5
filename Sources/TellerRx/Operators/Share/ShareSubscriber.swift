/// One subscriber of a `share` observable: the observer, plus a disposed flag that is checked before
/// every delivery, so a subscriber disposed on the delivering thread gets nothing more even
/// from an emission already in progress.
class ShareSubscriber<Element>: Disposable, @unchecked Sendable {
    // @unchecked: `disposed` is atomic; `removal` is immutable.
    private let disposed = AtomicState(false)
    private let removal: @Sendable (ShareSubscriber<Element>) -> Void

    init(removal: @escaping @Sendable (ShareSubscriber<Element>) -> Void) {
        self.removal = removal
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    final var isDisposed: Bool {
        disposed.isSet
    }

    /// Delivers `event` unless this subscriber has been disposed.
    @inline(__always)
    final func deliver(_ event: Event<Element>) {
        if disposed.isSet { return }
        on(event)
    }

    /// Delivers `element` unless this subscriber has been disposed, with no ``Event`` built.
    @inline(__always)
    final func deliverNext(_ element: Element) {
        if disposed.isSet { return }
        onNext(element)
    }

    func on(_ event: Event<Element>) {
        preconditionFailure("ShareSubscriber.on must be overridden")
    }

    func onNext(_ element: Element) {
        preconditionFailure("ShareSubscriber.onNext must be overridden")
    }

    final func dispose() {
        guard disposed.set() else { return }
        removal(self)
    }
}

/// A share subscriber holding a concrete observer (no closure in between).
final class ObserverShareSubscriber<Observer: ObserverType>: ShareSubscriber<Observer.Element>,
    @unchecked Sendable
{
    // @unchecked: `observer` is immutable and called serially by the share state machine.
    private let observer: Observer

    init(observer: Observer, removal: @escaping @Sendable (ShareSubscriber<Observer.Element>) -> Void) {
        self.observer = observer
        super.init(removal: removal)
    }

    override func on(_ event: Event<Observer.Element>) {
        observer.on(event)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    override func onNext(_ element: Observer.Element) {
        observer.onNext(element)
    }
}

/// The subscribers of a `share` observable, in subscription order.
typealias ShareSubscribers<Element> = ContiguousArray<ShareSubscriber<Element>>

extension ContiguousArray {
    /// Removes `subscriber` by identity. Linear, which beats hashing for the few subscribers a
    /// shared observable usually has.
    mutating func remove<Value>(subscriber: ShareSubscriber<Value>)
    where Element == ShareSubscriber<Value> {
        if let index = firstIndex(where: { $0 === subscriber }) {
            remove(at: index)
        }
    }
}

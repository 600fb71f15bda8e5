extension ObservableType where Element: ObservableConvertibleType {
    /// Forwards the elements of the most recent inner sequence only: each new inner sequence
    /// this sequence sends replaces (and disposes) the previous one.
    ///
    /// The result completes once this sequence has completed and the latest inner sequence has
    /// completed too. An error from this sequence or from the latest inner sequence is sent at
    /// once and disposes everything; a replaced inner sequence can no longer send anything.
    /// Events are delivered on the thread that sends them, one at a time, never overlapping.
    ///
    /// - Returns: An observable of the elements of the latest inner sequence.
    @inlinable
    public func switchLatest() -> Observable<Element.Element> {
        SwitchProducer(source: asObservable()) { $0 }
    }
}

/// The producer behind `switchLatest` and `flatMapLatest`.
///
/// `@usableFromInline`, with `@inlinable` operator methods, so the call site builds it with its
/// concrete types: unspecialized generic code would look up the producer's type metadata at
/// run time on every call.
@usableFromInline
final class SwitchProducer<SourceElement: Sendable, Inner: ObservableConvertibleType>: Producer<Inner.Element>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    @usableFromInline
    typealias Selector = @Sendable (SourceElement) throws -> Inner

    let source: Observable<SourceElement>
    let selector: Selector

    @usableFromInline
    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Inner.Element {
        let sink = SwitchSink(selector: selector, observer: observer, downstream: downstream)
        sink.run(source)
        return sink
    }
}

/// Follows the latest inner sequence. Each outer element gets a new id; events from an inner
/// sequence whose id is no longer the latest are dropped, so a replaced inner sequence cannot
/// leak elements even if it emits while being disposed on another thread.
///
/// The `lock` guards the state; elements are decided under it and delivered after it, one at a
/// time (see ``LockedSink``), and the terminal event is sent, and everything disposed, only once
/// it is released (see ``LockedSink``). The current inner subscription lives
/// in a lock-free ``SerialSlot`` instead, so that disposing from another thread never waits for
/// a delivery in progress. The selector is user code: it runs with the lock released.
private final class SwitchSink<SourceElement: Sendable, Inner: ObservableConvertibleType, Observer: ObserverType>:
    FlatteningSink<SourceElement, Observer>, @unchecked Sendable
where Inner.Element == Observer.Element {
    // @unchecked: the mutable state is guarded by `lock`; `current` is atomic.
    typealias Selector = @Sendable (SourceElement) throws -> Inner

    private let selector: Selector
    private let current = SerialSlot()
    /// Fetched on first use (sequences of `just` never need it); only the serial outer
    /// sequence's `onNext` touches it.
    @exclusivity(unchecked) private var innerObserverType: (any InnerObserverCreating<Inner.Element>.Type)?

    // Guarded by `lock`.
    @exclusivity(unchecked) fileprivate var latestID: UInt64 = 0
    @exclusivity(unchecked) private var hasLatest = false

    init(selector: @escaping Selector, observer: Observer, downstream: SubscriptionSlot?) {
        self.selector = selector
        super.init(observer: observer, downstream: downstream)
    }

    func run(_ source: Observable<SourceElement>) {
        source.subscribe(self, upstreamOf: outer)
    }

    /// Runs the selector with the lock released ("decide under the lock, act after"): it is user
    /// code, which may send into the current inner sequence or dispose this operator. The outer
    /// sequence is serial, so no other outer element is decided meanwhile; an event of the
    /// current inner sequence decided meanwhile could as well have come just before this element.
    override func onNext(_ element: SourceElement) {
        guard !isDisposed else { return }
        // Not a `let inner` set in the `do`: moving it out costs a value-witness call per
        // element in unspecialized generic code.
        do {
            switchTo(try selector(element))
        } catch {
            outerFailed(error)
        }
    }

    /// The rest of ``onNext(_:)``, once the selector made `inner`: makes it the latest inner
    /// sequence.
    @inline(__always)
    private func switchTo(_ inner: Inner) {
        lock.lock()
        guard !isDisposed else {
            lock.unlock()
            return
        }
        latestID &+= 1
        hasLatest = true
        let id = latestID
        let observable = inner.asObservable()
        // A `just`: no inner subscription, same events (see `withScalarElement`), decided
        // while still holding the lock. The replaced inner sequence, which can no longer
        // send anything (its id is stale), is disposed right after.
        let isScalar = observable.withScalarElement { element in
            let deliversNow = scalarArrived(element)
            lock.unlock()
            if deliversNow { deliver(element) }
        }
        if isScalar {
            current.disposeCurrent()
            finishIfStopped()
            return
        }
        lock.unlock()
        let observerType = innerObserverType ?? SwitchInnerObserver<SourceElement, Inner, Observer>.self
        innerObserverType = observerType
        subscribe(observable, id: id, observerType: observerType)
    }

    /// Called under `lock`: the element of a `just` inner sequence, which then counts as
    /// completed.
    ///
    /// - Returns: Whether the caller delivers `element` (see ``LockedSink/claimTurn(for:)``).
    @inline(__always)
    private func scalarArrived(_ element: Inner.Element) -> Bool {
        // Without building an `Event` (a type-metadata lookup here and in the observer).
        let deliversNow = claimTurn(for: element)
        innerCompleted(id: latestID)
        return deliversNow
    }

    private func subscribe<InnerObserver: InnerObserverCreating<Inner.Element>>(
        _ inner: Observable<Inner.Element>,
        id: UInt64,
        observerType: InnerObserver.Type
    ) {
        let observer = observerType.init(parent: Unmanaged.passUnretained(self).toOpaque(), tag: id)
        // The previous inner is disposed before the new one is subscribed, as in RxSwift.
        guard current.replace(with: observer) else { return }
        inner.subscribeEnteringTrampoline(observer, upstreamOf: observer)
    }

    override var hasRunningInners: Bool {
        hasLatest
    }

    /// Called under `lock` when the inner sequence with `id` completes.
    @inline(never)
    fileprivate func innerCompleted(id: UInt64) {
        guard id == latestID else { return }
        hasLatest = false
        if isOuterDone {
            complete()
        }
    }

    override func disposeInners() {
        current.dispose()
    }
}

/// The observer of one inner sequence, tagged with the id of the outer element it came from.
private class SwitchInnerObserver<
    SourceElement: Sendable,
    Inner: ObservableConvertibleType,
    Observer: ObserverType
>: SubscriptionSlot, InnerObserverCreating, @unchecked Sendable
where Inner.Element == Observer.Element {
    // @unchecked: `parent` and `id` are immutable.
    typealias Parent = SwitchSink<SourceElement, Inner, Observer>

    private let parent: Parent
    private let id: UInt64

    required init(parent: UnsafeMutableRawPointer, tag: UInt64) {
        self.parent = Unmanaged<Parent>.fromOpaque(parent).takeUnretainedValue()
        id = tag
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Observer.Element) {
        let deliversNow = parent.lock.withLock { parent.latestID == id && parent.claimTurn(for: element) }
        if deliversNow { parent.deliver(element) }
    }

    func on(_ event: Event<Observer.Element>) {
        parent.lock.lock()
        switch event {
        case .next(let element):
            parent.lock.unlock()
            onNext(element)
            return
        case .error(let error):
            if parent.latestID == id {
                parent.fail(error)
            }
        case .completed:
            parent.innerCompleted(id: id)
        }
        parent.lock.unlock()
        // Disposals only once the lock is released (see `LockedSink`).
        dispose()
        parent.finishIfStopped()
    }
}

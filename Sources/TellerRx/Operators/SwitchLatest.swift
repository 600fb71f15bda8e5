import Synchronization

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
/// The outer sequence's and the inner sequences' events go through one ``SerialDrain``, which
/// also guards the state: elements, the terminal event and disposals are sent under no lock. A
/// new inner sequence is subscribed after the drain is left where it can be (so that what it
/// sends synchronously takes the drain's fast path), inside the drain's work otherwise. The
/// current inner subscription lives in a lock-free ``SerialSlot``, so that disposing from
/// another thread never waits for a delivery in progress.
private final class SwitchSink<SourceElement: Sendable, Inner: ObservableConvertibleType, Observer: ObserverType>:
    Sink<Observer>, ObserverType, @unchecked Sendable
where Inner.Element == Observer.Element {
    // @unchecked: the mutable state is only touched inside `drain`'s work; `current` and
    // `outer` are atomic.
    typealias Selector = @Sendable (SourceElement) throws -> Inner
    typealias InnerObserverType = any InnerObserverCreating<Inner.Element>.Type

    private let selector: Selector
    fileprivate let drain = SerialDrain()
    private let outer = SubscriptionSlot()
    private let current = SerialSlot()
    private let isTornDown = Atomic<Bool>(false)
    /// Fetched on first use (sequences of `just` never need it), inside the drain.
    @exclusivity(unchecked) private var innerObserverType: InnerObserverType?

    // Only touched inside `drain`'s work.
    @exclusivity(unchecked) private var latestID: UInt64 = 0
    @exclusivity(unchecked) private var hasLatest = false
    @exclusivity(unchecked) private var isOuterDone = false

    init(selector: @escaping Selector, observer: Observer, downstream: SubscriptionSlot?) {
        self.selector = selector
        super.init(observer: observer, downstream: downstream)
    }

    func run(_ source: Observable<SourceElement>) {
        source.subscribe(self, upstreamOf: outer)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            drain.run { [self] in fail(error) }
        case .completed:
            onCompleted()
        }
    }

    func onNext(_ element: SourceElement) {
        if drain.tryEnter() {
            let next = select(element)
            drain.leave()
            if let next { subscribe(next.inner, id: next.id, observerType: next.observerType) }
        } else {
            drain.run { [self] in
                if let next = select(element) { subscribe(next.inner, id: next.id, observerType: next.observerType) }
            }
        }
    }

    /// Inside the drain: makes `element`'s inner sequence the latest, and returns what to
    /// subscribe to, or `nil` when there is nothing to subscribe (stopped, a failed selector,
    /// or a `just`, whose element is forwarded at once).
    private func select(
        _ element: SourceElement
    ) -> (inner: Observable<Inner.Element>, id: UInt64, observerType: InnerObserverType)? {
        if isDisposed { return nil }
        let inner: Inner
        do {
            inner = try selector(element)
        } catch {
            fail(error)
            return nil
        }
        latestID &+= 1
        hasLatest = true
        let observable = inner.asObservable()
        // A `just`: no inner subscription, same events (see `withScalarElement`). The replaced
        // inner sequence, which can no longer send anything (its id is stale), is disposed
        // right after.
        if observable.withScalarElement({ scalarArrived($0) }) {
            current.disposeCurrent()
            return nil
        }
        let observerType = innerObserverType ?? SwitchInnerObserver<SourceElement, Inner, Observer>.self
        innerObserverType = observerType
        return (observable, latestID, observerType)
    }

    /// Inside the drain: the element of a `just` inner sequence, which then counts as completed.
    private func scalarArrived(_ element: Inner.Element) {
        // Without building an `Event` (a type-metadata lookup here and in the observer).
        forwardNext(element)
        innerCompleted(id: latestID)
    }

    private func subscribe(_ inner: Observable<Inner.Element>, id: UInt64, observerType: InnerObserverType) {
        let observer = observerType.init(parent: Unmanaged.passUnretained(self).toOpaque(), tag: id)
        // The previous inner is disposed before the new one is subscribed, as in RxSwift.
        guard current.replace(with: observer) else { return }
        inner.subscribeEnteringTrampoline(observer, upstreamOf: observer)
    }

    @inline(never)
    private func onCompleted() {
        drain.run { [self] in
            isOuterDone = true
            if !hasLatest {
                complete()
            }
        }
        outer.dispose()
    }

    /// Inside the drain: an event of the inner sequence with `id`.
    fileprivate func inner(_ event: Event<Observer.Element>, id: UInt64) {
        switch event {
        case .next:
            if latestID == id { forwardOn(event) }
        case .error(let error):
            if latestID == id { fail(error) }
        case .completed:
            innerCompleted(id: id)
        }
    }

    /// Inside the drain: the inner sequence with `id` completed.
    @inline(never)
    private func innerCompleted(id: UInt64) {
        guard id == latestID else { return }
        hasLatest = false
        if isOuterDone {
            complete()
        }
    }

    /// Inside the drain: ends with `error`, and disposes everything.
    @inline(never)
    private func fail(_ error: any Error) {
        forwardTerminal(.error(error))
    }

    /// Inside the drain: ends with completion, and disposes everything.
    @inline(never)
    private func complete() {
        forwardTerminal(.completed)
    }

    override func dispose() {
        super.dispose()
        guard !isTornDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        outer.dispose()
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

    func on(_ event: Event<Observer.Element>) {
        if parent.drain.tryEnter() {
            parent.inner(event, id: id)
            parent.drain.leave()
        } else {
            parent.drain.run { [parent, id] in parent.inner(event, id: id) }
        }
        if event.isStopEvent { dispose() }
    }
}

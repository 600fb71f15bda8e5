/// How many inner sequences a merging sink runs at once, and what it does with one that
/// arrives while that many are running. `@usableFromInline` for the `@inlinable` operator methods
/// that create a ``MergeProducer``.
@usableFromInline
struct MergeLimit: Sendable {
    /// The most inner sequences subscribed at the same time.
    let maxConcurrent: Int
    /// `true`: keep the extra inner sequences and subscribe them in order as others complete
    /// (`merge(maxConcurrent:)`, `concatMap`). `false`: ignore the element that would have
    /// produced one, without calling the selector (`flatMapFirst`).
    let queuesOverflow: Bool

    @usableFromInline static let unlimited = MergeLimit(maxConcurrent: .max, queuesOverflow: true)
    @usableFromInline static let dropWhileBusy = MergeLimit(maxConcurrent: 1, queuesOverflow: false)

    @usableFromInline
    static func queue(maxConcurrent: Int) -> MergeLimit {
        if maxConcurrent < 1 {
            reportMisuse("merge(maxConcurrent:) needs at least 1; got \(maxConcurrent), using 1.")
        }
        return MergeLimit(maxConcurrent: max(1, maxConcurrent), queuesOverflow: true)
    }
}

/// The producer behind `merge()`, `merge(maxConcurrent:)`, `concat()`, `flatMap`,
/// `flatMapFirst` and `concatMap`: maps each outer element to an inner sequence and merges the
/// inner sequences under `limit`.
///
/// `@usableFromInline`, with `@inlinable` operator methods, so the call site builds it with its
/// concrete types: unspecialized generic code would look up the producer's type metadata at
/// run time on every call.
@usableFromInline
final class MergeProducer<SourceElement: Sendable, Inner: ObservableConvertibleType>: Producer<Inner.Element>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    @usableFromInline
    typealias Selector = @Sendable (SourceElement) throws -> Inner

    let source: Observable<SourceElement>
    let selector: Selector
    let limit: MergeLimit

    @usableFromInline
    init(source: Observable<SourceElement>, limit: MergeLimit, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
        self.limit = limit
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Inner.Element {
        let sink = MergeSink(selector: selector, limit: limit, observer: observer, downstream: downstream)
        sink.setSubscription(sink.run(source))
        return sink
    }
}

/// Merges the inner sequences an outer sequence produces.
///
/// Its lock guards the counters; everything sent downstream, whichever source and thread it
/// comes from, is decided under it and delivered after it, one event at a time (see
/// ``LockedSink``), so an inner sequence fed back from downstream neither deadlocks nor
/// reorders. A terminal event is sent, and everything disposed, once the lock is released (see
/// ``LockedSink``); an inner subscription that completed is disposed
/// after it too. The open inner
/// subscriptions are tracked apart, with their own small lock, so that disposing from another
/// thread never waits for a delivery in progress; an inner sequence that ends while it is being
/// subscribed (`just`) is never tracked at all.
///
/// The selector is user code: it runs with the lock released (see ``onNext(_:)``).
///
/// Completion: after the outer sequence has completed and every inner sequence (running or
/// queued) has completed. Any error ends everything at once.
final class MergeSink<SourceElement: Sendable, Inner: ObservableConvertibleType, Observer: ObserverType>:
    FlatteningSink<SourceElement, Observer>, @unchecked Sendable
where Inner.Element == Observer.Element {
    // @unchecked: the mutable state is guarded by `lock`; `inners` synchronises itself.
    typealias Selector = @Sendable (SourceElement) throws -> Inner

    private let selector: Selector
    private let limit: MergeLimit
    private let inners = InnerSubscriptions()
    /// A finished inner observer that nothing else references any more, kept to observe the
    /// next inner sequence: saves an allocation (and, in unspecialized generic code, a
    /// metadata lookup) per element when inner sequences end during `subscribe` (`just`).
    private let spareObserver = AtomicState<Unmanaged<InnerSubscription>?>(nil)
    /// Fetched on first use, under `lock` (sequences of `just` never need it): naming the
    /// generic observer type at each inner subscription would cost runtime metadata lookups
    /// every time in unspecialized generic code.
    @exclusivity(unchecked) private var lazyInnerObserverType: (any InnerObserverCreating<Inner.Element>.Type)?

    // Guarded by `lock`, which is also why dynamic exclusivity checks are switched off.
    @exclusivity(unchecked) private var activeCount = 0
    /// The inner sequences waiting for room, created by the first one that has to wait: in
    /// unspecialized generic code an inline `FIFOQueue<Inner>` cost a type-metadata lookup in
    /// every sink's `init` and `deinit`, though most sinks never queue anything.
    @exclusivity(unchecked) private var pending: PendingInners<Inner>?
    /// The number of queued inner sequences, kept apart so the common path never touches the
    /// generic queue.
    @exclusivity(unchecked) private var pendingCount = 0
    @exclusivity(unchecked) private var isSubscribingPending = false

    init(selector: @escaping Selector, limit: MergeLimit, observer: Observer, downstream: SubscriptionSlot?) {
        self.selector = selector
        self.limit = limit
        super.init(observer: observer, downstream: downstream)
    }

    /// Subscribes to the outer sequence. Teardown happens in ``dispose()``, so the returned
    /// subscription is empty.
    func run(_ source: Observable<SourceElement>) -> any Disposable {
        source.subscribe(self, upstreamOf: outer)
        return Disposables.create()
    }

    /// Merges a fixed list of sequences (`Observable.merge(...)`): as if an outer sequence sent
    /// them all and completed.
    func run(sources: [Inner]) -> any Disposable {
        lock.withLock {
            // Counted up front so that a source completing during the loop cannot complete us.
            activeCount = sources.count
        }
        for source in sources {
            if isDisposed { break }
            subscribe(source)
        }
        lock.withLock {
            isOuterDone = true
            completeIfFinished()
        }
        finishIfStopped()
        return Disposables.create()
    }

    /// Runs the selector with the lock released ("decide under the lock, act after"): it is user
    /// code, which may send into this operator's inner sequences or dispose it. The outer
    /// sequence is serial, so no other outer element is decided meanwhile; an inner event
    /// decided meanwhile could as well have come just before this element.
    override func onNext(_ element: SourceElement) {
        if limit.queuesOverflow {
            // Every element gets the selector, to run or to queue its result (as in RxSwift).
            guard !isDisposed else { return }
        } else {
            // `flatMapFirst`: the selector only runs for an element that finds room.
            guard claimRoom() else { return }
        }
        // No helper returning an `Inner?`: in unspecialized generic code that optional type
        // would cost a metadata lookup per element. Nor a `let inner` set in the `do`: moving
        // it out costs a value-witness call per element.
        do {
            merge(try selector(element))
        } catch {
            outerFailed(error)
        }
    }

    /// The rest of ``onNext(_:)``, once the selector made `inner`: subscribes it, queues it, or
    /// (a `just`) delivers its element.
    @inline(__always)
    private func merge(_ inner: Inner) {
        lock.lock()
        if limit.queuesOverflow {
            guard !isDisposed else {
                lock.unlock()
                return
            }
            // Queued behind any waiting sequence too: the room it waits for may have been made
            // by a thread that has not subscribed it yet, and order must hold (`concatMap`).
            if activeCount >= limit.maxConcurrent || pendingCount > 0 {
                enqueue(inner)
                let hasRoom = activeCount < limit.maxConcurrent
                lock.unlock()
                if hasRoom { subscribePending() }
                return
            }
            activeCount += 1
        }
        let observable = inner.asObservable()
        // Checked while still holding the lock: a `just` is counted without letting go of it.
        // Nothing is queued here (an element that finds a queue joins it, above; `flatMapFirst`
        // never queues), so the room it leaves needs no `subscribePending()`.
        let isScalar = observable.withScalarElement { element in
            let deliversNow = scalarArrived(element)
            lock.unlock()
            if deliversNow { deliver(element) }
        }
        if isScalar {
            finishIfStopped()
            return
        }
        let observerType = innerObserverType()
        lock.unlock()
        subscribe(observable, observerType: observerType)
    }

    /// For `flatMapFirst`: counts an inner sequence active if there is room for one, before the
    /// selector makes it.
    ///
    /// - Returns: Whether there was room (and the sink is still running).
    private func claimRoom() -> Bool {
        lock.withLock {
            guard !isDisposed, activeCount < limit.maxConcurrent else { return false }
            activeCount += 1
            return true
        }
    }

    override var hasRunningInners: Bool {
        activeCount > 0 || pendingCount > 0
    }

    /// Called under `lock`: queues `inner` until there is room.
    private func enqueue(_ inner: Inner) {
        let queue = pending ?? PendingInners()
        pending = queue
        queue.inners.enqueue(inner)
        pendingCount += 1
    }

    private func subscribe(_ inner: Inner) {
        let observable = inner.asObservable()
        // A `just`: forward its element and count it completed, without an inner subscription
        // (RxJava's scalar shortcut; the events are the same).
        if observable.withScalarElement({ element in
            if lock.withLock({ scalarArrived(element) }) { deliver(element) }
        }) {
            return
        }
        let observerType = lock.withLock { innerObserverType() }
        subscribe(observable, observerType: observerType)
    }

    /// Called under `lock`.
    private func innerObserverType() -> any InnerObserverCreating<Inner.Element>.Type {
        if let type = lazyInnerObserverType { return type }
        let type = MergeInnerObserver<SourceElement, Inner, Observer>.self
        lazyInnerObserverType = type
        return type
    }

    /// Called under `lock`: the element of a `just` inner sequence, which then counts as
    /// completed. If this ends the sink, sending the terminal event and disposing are left to
    /// the caller (an entry point that calls `finishIfStopped()` once it has released the lock).
    ///
    /// - Returns: Whether the caller delivers `element` (see ``LockedSink/claimTurn(for:)``).
    @inline(__always)
    private func scalarArrived(_ element: Inner.Element) -> Bool {
        // No `Event` built: in this unspecialized code that costs a type-metadata lookup here
        // and another where the observer switches on it.
        let deliversNow = claimTurn(for: element)
        activeCount -= 1
        completeIfFinished()
        return deliversNow
    }

    private func subscribe<InnerObserver: InnerObserverCreating<Inner.Element>>(
        _ inner: Observable<Inner.Element>,
        observerType: InnerObserver.Type
    ) {
        var observer: InnerObserver
        if let spare = spareObserver.exchange(nil) {
            // Only ever filled with observers of this sink's own type.
            observer = Unmanaged<InnerObserver>.fromOpaque(spare.toOpaque()).takeRetainedValue()
            observer.prepareForReuse()
        } else {
            observer = observerType.init(parent: Unmanaged.passUnretained(self).toOpaque(), tag: 0)
        }
        let subscription = unsafeDowncast(observer, to: InnerSubscription.self)
        // Tracked before it is subscribed, as every sink is wired before it subscribes: if the
        // sink ends while a synchronous inner source is still sending, its teardown reaches
        // that source at once. Refused (and disposed) when the sink has ended already.
        guard inners.register(subscription) == .tracked else { return }
        inner.subscribeEnteringTrampoline(observer, upstreamOf: observer)
        // Unique: the inner source kept no reference, so nothing can call the observer again.
        if subscription.hasEnded && isKnownUniquelyReferenced(&observer) {
            keepAsSpare(unsafeDowncast(observer, to: InnerSubscription.self))
        }
    }

    /// Keeps `observer` for reuse. The sink must not keep it once torn down: the observer
    /// holds the sink, so the two would keep each other alive.
    private func keepAsSpare(_ observer: InnerSubscription) {
        let spare = Unmanaged.passRetained(observer)
        let (stored, _) = spareObserver.compareExchange(expected: nil, desired: spare)
        if !stored {
            spare.release()
        } else if isTornDown {
            spareObserver.exchange(nil)?.release()
        }
    }

    /// Called under `lock` when an inner sequence completes; the caller disposes its
    /// subscription after releasing the lock, then calls ``subscribePending()`` if this
    /// returned `true`.
    ///
    /// - Returns: Whether queued inner sequences wait for the room this made.
    fileprivate func innerCompleted(_ observer: InnerSubscription) -> Bool {
        inners.unregister(observer)
        activeCount -= 1
        completeIfFinished()
        return pendingCount > 0
    }

    /// Subscribes queued inner sequences while there is room. Call without holding `lock`:
    /// subscribing can take the inner source's locks, and a thread holding one of those may be
    /// waiting for ours. Only one thread runs the loop at a time; an inner that completes
    /// synchronously, or on another thread, while it runs leaves the work to it instead of
    /// recursing once per queued sequence (the loop hands over under the lock, so no room
    /// made meanwhile is missed).
    fileprivate func subscribePending() {
        let mustRun = lock.withLock {
            guard !isSubscribingPending else { return false }
            isSubscribingPending = true
            return true
        }
        guard mustRun else { return }
        while let next = lock.withLock({ nextPending() }) {
            subscribe(next)
        }
    }

    /// Called under `lock`: the next queued inner sequence, counted active, or `nil` (handing
    /// the loop back) when none can start now.
    private func nextPending() -> Inner? {
        guard activeCount < limit.maxConcurrent, pendingCount > 0, !isDisposed,
            let next = pending?.inners.dequeue()
        else {
            isSubscribingPending = false
            return nil
        }
        pendingCount -= 1
        activeCount += 1
        return next
    }

    /// Called under `lock`.
    private func completeIfFinished() {
        if isOuterDone && activeCount == 0 && pendingCount == 0 {
            complete()
        }
    }

    override func disposeInners() {
        inners.disposeAll()
        spareObserver.exchange(nil)?.release()
    }
}

/// A merging sink's queue of inner sequences waiting for room; a class so that a sink that
/// never queues anything holds only a `nil` reference. Guarded by the sink's lock.
private final class PendingInners<Inner> {
    var inners = FIFOQueue<Inner>()
}

/// The observer of one inner sequence, and the handle that ends its subscription.
private final class MergeInnerObserver<
    SourceElement: Sendable,
    Inner: ObservableConvertibleType,
    Observer: ObserverType
>:
    InnerSubscription, InnerObserverCreating, @unchecked Sendable
where Inner.Element == Observer.Element {
    // @unchecked: `isStopped` is guarded by the parent's lock.
    typealias Parent = MergeSink<SourceElement, Inner, Observer>

    private let parent: Parent
    @exclusivity(unchecked) private var isStopped = false

    init(parent: UnsafeMutableRawPointer, tag: UInt64) {
        self.parent = Unmanaged<Parent>.fromOpaque(parent).takeUnretainedValue()
    }

    func prepareForReuse() {
        resetSubscription()
        resetRegistration()
        isStopped = false
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Observer.Element) {
        // Dropped once the sink has ended. Not disposed here: this thread may be a source
        // sending under a lock its own teardown takes; the sink's teardown (on the thread that
        // ended it) reaches this subscription, which was tracked before it was made.
        let deliversNow = parent.lock.withLock { !isStopped && parent.claimTurn(for: element) }
        if deliversNow { parent.deliver(element) }
    }

    func on(_ event: Event<Observer.Element>) {
        if case .next(let element) = event {
            onNext(element)
            return
        }
        parent.lock.lock()
        guard !isStopped else {
            parent.lock.unlock()
            return
        }
        var hasPending = false
        switch event {
        case .next:
            parent.lock.unlock()
            return
        case .error(let error):
            isStopped = true
            parent.fail(error)
        case .completed:
            isStopped = true
            hasPending = parent.innerCompleted(self)
        }
        parent.lock.unlock()
        // Disposals and subscriptions only once the lock is released (see
        // `LockedSink`).
        if case .completed = event {
            dispose()
        }
        if hasPending { parent.subscribePending() }
        parent.finishIfStopped()
    }
}

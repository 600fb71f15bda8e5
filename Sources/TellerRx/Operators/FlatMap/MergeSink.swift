import Synchronization

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
/// Every event, from the outer sequence or any inner one, on any thread, goes through one
/// ``SerialDrain``, which also guards the counters: elements, the terminal event and disposal
/// go out under no lock, and an element sent back into a source from inside the observer's
/// `onNext` is handled after that `onNext` returns. Inner sequences are subscribed outside the
/// drain, so their synchronous elements take the drain's uncontended path. The open inner
/// subscriptions are tracked apart, with their own small lock, so that disposing from another
/// thread never waits for a delivery in progress; an inner sequence that ends while it is being
/// subscribed (`just`) is never tracked at all.
///
/// Completion: after the outer sequence has completed and every inner sequence (running or
/// queued) has completed. Any error ends everything at once.
final class MergeSink<SourceElement: Sendable, Inner: ObservableConvertibleType, Observer: ObserverType>:
    Sink<Observer>, ObserverType, @unchecked Sendable
where Inner.Element == Observer.Element {
    // @unchecked: the mutable state is touched only inside `drain`; `inners` and `outer`
    // synchronise themselves.
    typealias Selector = @Sendable (SourceElement) throws -> Inner

    /// What an outer element leaves to do once the drain is left.
    private enum AfterNext {
        case nothing
        case subscribePending
        case subscribe(Observable<Inner.Element>, any InnerObserverCreating<Inner.Element>.Type)
    }

    private let selector: Selector
    private let limit: MergeLimit
    fileprivate let drain = SerialDrain()
    private let outer = SubscriptionSlot()
    private let inners = InnerSubscriptions()
    private let isTornDown = Atomic<Bool>(false)
    /// A finished inner observer that nothing else references any more, kept to observe the
    /// next inner sequence: saves an allocation (and, in unspecialized generic code, a
    /// metadata lookup) per element when inner sequences end during `subscribe` (`just`).
    private let spareObserver = Atomic<Unmanaged<InnerSubscription>?>(nil)
    /// Fetched on first use, inside the drain (sequences of `just` never need it): naming the
    /// generic observer type at each inner subscription would cost runtime metadata lookups
    /// every time in unspecialized generic code.
    @exclusivity(unchecked) private var lazyInnerObserverType: (any InnerObserverCreating<Inner.Element>.Type)?

    // Touched only inside `drain`, which is also why dynamic exclusivity checks are switched off.
    @exclusivity(unchecked) private var activeCount = 0
    @exclusivity(unchecked) private var isOuterDone = false
    /// The inner sequences waiting for room, created by the first one that has to wait: in
    /// unspecialized generic code an inline `FIFOQueue<Inner>` cost a type-metadata lookup in
    /// every sink's `init` and `deinit`, though most sinks never queue anything.
    @exclusivity(unchecked) private var pending: PendingInners<Inner>?
    /// The number of queued inner sequences, kept apart so the common path never touches the
    /// generic queue.
    @exclusivity(unchecked) private var pendingCount = 0
    /// Whether a thread is running the loop of ``subscribePending()``.
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
        // Counted up front so that a source completing during the loop cannot complete us.
        let count = sources.count
        serialized { [self] in activeCount = count }
        for source in sources {
            if isDisposed { break }
            subscribe(source)
        }
        serialized { [self] in
            isOuterDone = true
            completeIfFinished()
        }
        return Disposables.create()
    }

    func on(_ event: Event<SourceElement>) {
        // Each case in its own function: in unspecialized generic code every function that
        // builds or inspects an `Event` of another element type pays a metadata lookup, so the
        // per-element path must not also carry the terminal paths' lookups.
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            onError(error)
        case .completed:
            onCompleted()
        }
    }

    func onNext(_ element: SourceElement) {
        guard drain.tryEnter() else {
            // Busy (another thread, or this one further up the stack): handled by the thread
            // inside the drain, which subscribes what it leaves pending once it is out.
            serialized { [self] in
                if case .subscribe(let inner, _) = outerNext(element) {
                    queueForSubscription(inner)
                }
            }
            return
        }
        let after = outerNext(element)
        let ranQueued = drain.leave()
        switch after {
        case .nothing:
            if ranQueued { subscribePending() }
        case .subscribePending:
            subscribePending()
        case .subscribe(let observable, let observerType):
            subscribe(observable, observerType: observerType)
            if ranQueued { subscribePending() }
        }
    }

    /// Inside the drain: runs the selector (as RxSwift does) and forwards a `just` at once;
    /// anything to subscribe is left to the caller, outside the drain.
    @inline(__always)
    private func outerNext(_ element: SourceElement) -> AfterNext {
        guard !isDisposed else { return .nothing }
        // Queued behind any waiting sequence too: the room it waits for may have been made by a
        // thread that has not subscribed it yet, and order must hold (`concatMap`).
        if activeCount >= limit.maxConcurrent || pendingCount > 0 {
            if limit.queuesOverflow {
                enqueue(element)
            }
            return activeCount < limit.maxConcurrent ? .subscribePending : .nothing
        }
        let inner: Inner
        do {
            inner = try selector(element)
        } catch {
            fail(error)
            return .nothing
        }
        activeCount += 1
        let observable = inner.asObservable()
        if observable.withScalarElement({ scalarArrived($0) }) {
            return pendingCount > 0 ? .subscribePending : .nothing
        }
        return .subscribe(observable, innerObserverType())
    }

    /// Inside the drain, on a thread that found it busy: the inner sequence `outerNext` counted
    /// active goes to the front of the pending ones instead, uncounted, for whoever leaves the
    /// drain to subscribe (nothing is subscribed inside the drain).
    private func queueForSubscription(_ inner: Observable<Inner.Element>) {
        activeCount -= 1
        let queue = pending ?? PendingInners()
        pending = queue
        queue.ready.enqueue(inner)
        pendingCount += 1
    }

    @inline(never)
    private func onError(_ error: any Error) {
        serialized { [self] in fail(error) }
    }

    @inline(never)
    private func onCompleted() {
        serialized { [self] in
            isOuterDone = true
            if activeCount == 0 && pendingCount == 0 {
                complete()
            }
        }
        // The outer subscription has ended either way; inner sequences may still run.
        outer.dispose()
    }

    /// Runs `work` inside the drain, then, if this thread ran anything, subscribes what it left
    /// pending.
    fileprivate func serialized(_ work: @escaping @Sendable () -> Void) {
        if drain.run(work) { subscribePending() }
    }

    /// Inside the drain: ends with `error`.
    @inline(never)
    fileprivate func fail(_ error: any Error) {
        forwardTerminal(.error(error))
    }

    /// Inside the drain: ends with completion.
    @inline(never)
    private func complete() {
        forwardTerminal(.completed)
    }

    /// Inside the drain: runs the selector now (as RxSwift does) and queues the result.
    private func enqueue(_ element: SourceElement) {
        do {
            let inner = try selector(element)
            let queue = pending ?? PendingInners()
            pending = queue
            queue.inners.enqueue(inner)
            pendingCount += 1
        } catch {
            fail(error)
        }
    }

    /// Outside the drain: subscribes `inner`, already counted active.
    private func subscribe(_ inner: Inner) {
        subscribe(inner.asObservable())
    }

    /// Outside the drain: subscribes `observable`, already counted active.
    private func subscribe(_ observable: Observable<Inner.Element>) {
        // A `just`: forward its element and count it completed, without an inner subscription
        // (RxJava's scalar shortcut; the events are the same).
        let isScalar = observable.withScalarElement { element in
            if drain.tryEnter() {
                scalarArrived(element)
                if drain.leave() { subscribePending() }
            } else {
                serialized { [self] in scalarArrived(element) }
            }
        }
        if isScalar { return }
        let observerType: any InnerObserverCreating<Inner.Element>.Type
        if drain.tryEnter() {
            observerType = innerObserverType()
            if drain.leave() { subscribePending() }
        } else {
            // Busy: named here, at the cost of a metadata lookup, rather than waiting.
            observerType = MergeInnerObserver<SourceElement, Inner, Observer>.self
        }
        subscribe(observable, observerType: observerType)
    }

    /// Inside the drain.
    private func innerObserverType() -> any InnerObserverCreating<Inner.Element>.Type {
        if let type = lazyInnerObserverType { return type }
        let type = MergeInnerObserver<SourceElement, Inner, Observer>.self
        lazyInnerObserverType = type
        return type
    }

    /// Inside the drain: the element of a `just` inner sequence, which then counts as
    /// completed.
    private func scalarArrived(_ element: Inner.Element) {
        if isDisposed { return }
        // `forwardNext`, not `forwardOn(.next(…))`: building an `Event` in this unspecialized
        // code costs a type-metadata lookup here and another where the observer switches on it.
        forwardNext(element)
        activeCount -= 1
        completeIfFinished()
    }

    private func subscribe<InnerObserver: InnerObserverCreating<Inner.Element>>(
        _ inner: Observable<Inner.Element>,
        observerType: InnerObserver.Type
    ) {
        var observer: InnerObserver
        if let spare = spareObserver.exchange(nil, ordering: .acquiringAndReleasing) {
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
        let (stored, _) = spareObserver.compareExchange(
            expected: nil,
            desired: spare,
            ordering: .sequentiallyConsistent
        )
        if !stored {
            spare.release()
        } else if isTornDown.load(ordering: .sequentiallyConsistent) {
            spareObserver.exchange(nil, ordering: .sequentiallyConsistent)?.release()
        }
    }

    /// Outside the drain: stops tracking an inner subscription that completed.
    fileprivate func unregister(_ observer: InnerSubscription) {
        inners.unregister(observer)
    }

    /// Inside the drain, when an inner sequence completes (the caller unregisters and disposes
    /// its subscription outside it).
    ///
    /// - Returns: Whether queued inner sequences wait for the room this made.
    fileprivate func innerCompleted() -> Bool {
        activeCount -= 1
        completeIfFinished()
        return pendingCount > 0
    }

    /// Outside the drain: subscribes queued inner sequences while there is room. Only one
    /// thread runs the loop at a time; an inner sequence that completes synchronously, or on
    /// another thread, while it runs leaves the work to it instead of recursing once per queued
    /// sequence. A thread that finds the drain busy leaves a note in it (which clears its claim
    /// on the loop): the thread inside runs the note and, having run queued work, comes back
    /// here once it is out, so no room made meanwhile is missed.
    fileprivate func subscribePending() {
        var ownsLoop = false
        while true {
            guard drain.tryEnter() else {
                let owned = ownsLoop
                ownsLoop = false
                let ranHere = drain.run { [self] in
                    if owned { isSubscribingPending = false }
                }
                if ranHere { continue }
                return
            }
            let next = takePending(ownsLoop: ownsLoop)
            let ranQueued = drain.leave()
            if let next {
                ownsLoop = true
                subscribe(next)
            } else if !ranQueued {
                return
            } else {
                ownsLoop = false
            }
        }
    }

    /// Inside the drain: the next queued inner sequence, counted active, for the thread that
    /// runs the loop (or may take it over); `nil`, handing the loop back, when none can start.
    private func takePending(ownsLoop: Bool) -> Observable<Inner.Element>? {
        if isSubscribingPending && !ownsLoop { return nil }
        guard activeCount < limit.maxConcurrent, pendingCount > 0, !isDisposed, let queue = pending else {
            isSubscribingPending = false
            return nil
        }
        let next: Observable<Inner.Element>
        if let ready = queue.ready.dequeue() {
            next = ready
        } else if let inner = queue.inners.dequeue() {
            next = inner.asObservable()
        } else {
            isSubscribingPending = false
            return nil
        }
        isSubscribingPending = true
        pendingCount -= 1
        activeCount += 1
        return next
    }

    /// Inside the drain.
    private func completeIfFinished() {
        if isOuterDone && activeCount == 0 && pendingCount == 0 {
            complete()
        }
    }

    override func dispose() {
        super.dispose()
        guard !isTornDown.exchange(true, ordering: .sequentiallyConsistent) else { return }
        outer.dispose()
        inners.disposeAll()
        spareObserver.exchange(nil, ordering: .sequentiallyConsistent)?.release()
    }
}

/// A merging sink's inner sequences waiting to be subscribed, created by the first one that has
/// to wait; a class so that a sink that never queues anything holds only a `nil` reference.
/// Touched only inside the sink's drain.
private final class PendingInners<Inner: ObservableConvertibleType> {
    /// Waiting for room, in order.
    var inners = FIFOQueue<Inner>()
    /// Already given room by an outer element handled for a thread that found the drain busy:
    /// subscribed before `inners` (it came before them), by the next thread out of the drain.
    var ready = FIFOQueue<Observable<Inner.Element>>()
}

/// The observer of one inner sequence, and the handle that ends its subscription.
private final class MergeInnerObserver<
    SourceElement: Sendable,
    Inner: ObservableConvertibleType,
    Observer: ObserverType
>:
    InnerSubscription, InnerObserverCreating, @unchecked Sendable
where Inner.Element == Observer.Element {
    // @unchecked: `isStopped` is touched only inside the parent's drain.
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

    func on(_ event: Event<Observer.Element>) {
        var hasPending = false
        if parent.drain.tryEnter() {
            hasPending = handle(event)
            if parent.drain.leave() { hasPending = true }
        } else {
            // If another thread is inside, it subscribes what this made room for once it is out.
            if parent.drain.run({ [self] in _ = handle(event) }) { hasPending = true }
        }
        if case .completed = event {
            // Its subscription ends now, outside the drain (see `Sink.forwardTerminal`).
            parent.unregister(self)
            dispose()
        }
        if hasPending { parent.subscribePending() }
    }

    /// Inside the parent's drain. Returns whether queued inner sequences wait for room made.
    private func handle(_ event: Event<Observer.Element>) -> Bool {
        guard !isStopped else { return false }
        switch event {
        case .next:
            // Dropped once the sink has ended. Not disposed here: this thread may be a source
            // sending under a lock its own teardown takes; the sink's teardown (on the thread
            // that ended it) reaches this subscription, which was tracked before it was made.
            parent.forwardOn(event)
            return false
        case .error(let error):
            isStopped = true
            parent.fail(error)
            return false
        case .completed:
            isStopped = true
            return parent.innerCompleted()
        }
    }
}

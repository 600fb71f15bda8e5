/// One source of a `combineLatest`, typed by its subclass, kept by the producer: it knows its
/// element type and makes the observer that stores its elements in a sink that knows none.
///
/// This is what keeps the arity overloads thin: each overload lists its sources as
/// ``CombineLatestSourceOf`` values plus a result function, and one N-ary sink does the rest.
/// Not generic, so the sink walks its sources without type-metadata lookups.
@usableFromInline
class CombineLatestSource: MultiSourceInput, @unchecked Sendable {
    // @unchecked: subclasses are immutable.

    /// The observer of the source, storing its elements in `storage` at `index` under `lock`;
    /// not yet subscribed (see ``MultiSourceObserver``). Only for a source that is not scalar.
    func makeObserver(
        for sink: any CombineLatestSinkType,
        lock: Lock,
        storage: MultiSourceStorage,
        index: Int
    ) -> MultiSourceObserver {
        preconditionFailure("CombineLatestSource.makeObserver must be overridden")
    }

    /// Initializes `storage` with the element of a scalar source (see ``MultiSourceInput/isScalar``).
    func initializeWithScalarElement(_ storage: UnsafeMutableRawPointer) {
        preconditionFailure("CombineLatestSource.initializeWithScalarElement must be overridden")
    }
}

/// A `combineLatest` source whose elements are `Element`; a sink stores its latest element.
@usableFromInline
final class CombineLatestSourceOf<Element: Sendable>: CombineLatestSource, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>

    /// Usable from inlinable code, so an arity overload specialized at the call site creates it
    /// with its concrete type (no metadata lookup per source per producer).
    @usableFromInline
    init(_ source: Observable<Element>) {
        self.source = source
        super.init(
            size: MemoryLayout<Element>.size,
            alignment: MemoryLayout<Element>.alignment,
            elementSize: MemoryLayout<Element>.size,
            elementAlignment: MemoryLayout<Element>.alignment,
            takesAsBytes: _isPOD(Element.self),
            isScalar: source.withScalarElement { _ in }
        )
    }

    override func deinitializeStorage(_ storage: UnsafeMutableRawPointer) {
        storage.assumingMemoryBound(to: Element.self).deinitialize(count: 1)
    }

    override func take(from storage: UnsafeMutableRawPointer, into slot: UnsafeMutableRawPointer) {
        slot.initializeMemory(as: Element.self, to: storage.assumingMemoryBound(to: Element.self).pointee)
    }

    override func deinitializeElement(_ slot: UnsafeMutableRawPointer) {
        slot.assumingMemoryBound(to: Element.self).deinitialize(count: 1)
    }

    override func makeObserver(
        for sink: any CombineLatestSinkType,
        lock: Lock,
        storage: MultiSourceStorage,
        index: Int
    ) -> MultiSourceObserver {
        CombineLatestObserver<Element>(sink: sink, lock: lock, storage: storage, index: index)
    }

    override func initializeWithScalarElement(_ storage: UnsafeMutableRawPointer) {
        let isScalar = source.withScalarElement { storage.initializeMemory(as: Element.self, to: $0) }
        assert(isScalar, "initializeWithScalarElement on a source that is not scalar")
    }
}

/// Takes the latest element of source `index` out of a snapshot, from a result function (typed
/// by the arity overload that knows the element types, and specialized where that overload is
/// called). A result function takes every element of its snapshot: a snapshot is taken anew,
/// under the lock, for each result.
@inlinable
@inline(__always)
func latest<Element>(_ storages: UnsafePointer<UnsafeMutableRawPointer>, _ index: Int, as _: Element.Type) -> Element {
    storages[index].assumingMemoryBound(to: Element.self).move()
}

/// The producer of every `combineLatest`: its sources and the function that turns their
/// latest elements into a result.
///
/// Internal and `@usableFromInline`, with `@inlinable` operator methods, so the call site builds
/// it, its sources and its result function with their concrete types: unspecialized, the result
/// function alone copied every element through value witnesses on every result.
@usableFromInline
final class CombineLatestProducer<Result: Sendable>: Producer<Result>, @unchecked Sendable {
    // @unchecked: immutable.
    /// Takes every source's latest element out of a snapshot (one per source, in order): runs
    /// without the lock, in the sink's delivery turn (see ``latest(_:_:as:)``).
    @usableFromInline
    typealias ResultSelector = @Sendable (UnsafePointer<UnsafeMutableRawPointer>) throws -> Result

    /// ``CombineLatestSource``s, kept as their non-generic base class: in unspecialized generic
    /// code (all of an operator chain) iterating an array of a generic element type costs
    /// runtime metadata lookups per step.
    let inputs: [MultiSourceInput]
    let layout: MultiSourceLayout
    let resultSelector: ResultSelector

    /// - Parameter sources: ``CombineLatestSource``s, in order.
    @usableFromInline
    init(sources: [MultiSourceInput], resultSelector: @escaping ResultSelector) {
        inputs = sources
        layout = MultiSourceLayout(inputs)
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Result {
        let sink = CombineLatestSink<Result, Observer>(
            inputs: inputs,
            layout: layout,
            resultSelector: resultSelector,
            observer: observer,
            downstream: downstream
        )
        sink.run()
        return sink
    }
}

/// What a source's observer calls on its `combineLatest` sink, all under the sink's lock except
/// ``finishIfStoppedHere()``. A protocol, so that observers are generic over their element type
/// only: an observer class generic over the sink's observer type too would cost a type-metadata
/// lookup per source per subscription. Refines ``SubscriptionSlot`` so observers read the sink's
/// state bits directly.
protocol CombineLatestSinkType: SubscriptionSlot {
    /// Source `index` has stored a new latest element (under the lock, while not stopped);
    /// releases the lock, then delivers the result this made, if any.
    func nextThenUnlock(_ index: Int)

    /// Source `index` completed.
    func done(_ index: Int)

    /// Ends with `error`, sent once the lock is released.
    func fail(_ error: any Error)

    /// After releasing the lock, once the sink reports ``SubscriptionSlot/isDisposed``: if this
    /// thread stopped the sink, sends the terminal event and disposes every source.
    func finishIfStoppedHere()
}

/// Combines the latest elements of N sources, RxSwift's way.
///
/// - A result is sent whenever any source sends an element, once every source has sent one.
/// - The result completes when every source has completed, or when a source sends an
///   element while some other source is done without ever having sent one (no result can
///   ever come then). A source that completes without elements does not end the result by
///   itself: RxSwift 6 waits for one of these two conditions, and so do we.
/// - Any error, from a source or thrown by the result selector, ends everything at once.
///
/// The latest elements and per-source flags live in one allocation the sink owns, laid out
/// once per producer by ``MultiSourceLayout``, so the sink needs no element types and the
/// per-source observers hold nothing but pointers. The lock guards the state; results are
/// decided under it (the latest elements copied into a snapshot), then made by the result
/// selector and delivered after it, one at a time, in the delivery turn (see ``LockedSink``),
/// and the terminal event is sent, and the sources disposed, only after it is released.
///
/// Generic over `Result` as well as `Observer` so the result's type metadata comes with the
/// class instead of from a lookup through `Observer` per result.
final class CombineLatestSink<Result: Sendable, Observer: ObserverType>: LockedSink<Observer>, CombineLatestSinkType,
    @unchecked Sendable
where Observer.Element == Result {
    // @unchecked: the mutable state is guarded by `lock`.
    typealias ResultSelector = CombineLatestProducer<Result>.ResultSelector

    private let inputs: [MultiSourceInput]
    private let layout: MultiSourceLayout
    private let resultSelector: ResultSelector
    /// Every source's latest element and flags ("has a value", "is done"), and the turn's
    /// snapshot, in one allocation.
    private let storage: MultiSourceStorage
    /// How many sources are not scalar (see ``MultiSourceInput/isScalar``).
    private let observerCount: Int

    // Guarded by `lock` (hence no dynamic exclusivity checks).
    @exclusivity(unchecked) private var valueCount = 0
    @exclusivity(unchecked) private var doneCount = 0

    init(
        inputs: [MultiSourceInput],
        layout: MultiSourceLayout,
        resultSelector: @escaping ResultSelector,
        observer: Observer,
        downstream: SubscriptionSlot?
    ) {
        self.inputs = inputs
        self.layout = layout
        self.resultSelector = resultSelector
        storage = MultiSourceStorage(layout: layout, inputs: inputs)
        observerCount = layout.observerCount
        super.init(observer: observer, downstream: downstream)
    }

    deinit {
        storage.release(inputs: inputs) { storage.firstFlag($0) }
    }

    /// Creates the observers of the sources that are not scalar and makes them this sink's
    /// subscription, then subscribes every source in order (see ``MultiSourceObserver``); a
    /// scalar source (`just`) gets no observer: its element and completion are taken at once.
    func run() {
        if observerCount == 1 {
            // The common shape, one sequence combined with `just`s: no array of one observer.
            var index = 0
            while inputs[index].isScalar { index += 1 }
            let observer = makeObserver(index)
            setSubscription(observer)
            MultiSourceObserver.subscribeAll(CollectionOfOne(observer), to: inputs, until: self) {
                scalarArrived($0)
            }
        } else {
            var slots: [SubscriptionSlot] = []
            slots.reserveCapacity(observerCount)
            for index in 0..<inputs.count where !inputs[index].isScalar {
                slots.append(makeObserver(index))
            }
            setSubscription(SlotsDisposable(slots))
            MultiSourceObserver.subscribeAll(slots, to: inputs, until: self) { scalarArrived($0) }
        }
        if inputs.isEmpty {
            // As RxSwift 6 does: the result for no elements, then completion.
            lock.lock()
            sendResultThenUnlock()
            lock.withLock { complete() }
            finishIfStopped()
        }
    }

    private func makeObserver(_ index: Int) -> MultiSourceObserver {
        unsafeDowncast(inputs[index], to: CombineLatestSource.self)
            .makeObserver(for: self, lock: lock, storage: storage, index: index)
    }

    /// Source `index` is scalar: what subscribing to it would send, its element then its
    /// completion, without an observer.
    private func scalarArrived(_ index: Int) {
        lock.lock()
        // Stopped: the sink is being torn down; nothing more is combined.
        if isDisposed {
            lock.unlock()
        } else {
            unsafeDowncast(inputs[index], to: CombineLatestSource.self)
                .initializeWithScalarElement(storage.values[index])
            nextThenUnlock(index)
            lock.withLock { done(index) }
        }
        finishIfStopped()
    }

    func nextThenUnlock(_ index: Int) {
        if !storage.firstFlag(index) {
            storage.setFirstFlag(index)
            valueCount += 1
        }
        if valueCount == inputs.count {
            sendResultThenUnlock()
            return
        }
        if doneCount - (storage.secondFlag(index) ? 1 : 0) == inputs.count - 1 {
            // Every other source is done, and one of them never sent anything.
            complete()
        }
        lock.unlock()
    }

    /// Called under `lock`: takes the latest elements for a result, releases the lock, then
    /// (in the delivery turn) makes the result and delivers it.
    private func sendResultThenUnlock() {
        let makesNow = claimTurnToMakeResult {
            MultiSourceSnapshot(taking: storage, layout: layout, inputs: inputs)
        }
        if makesNow { storage.takeForTurn(inputs: inputs) }
        lock.unlock()
        guard makesNow else { return }
        do {
            // Only the selector throws.
            deliver(try resultSelector(storage.snapshot))
        } catch {
            failMakingResult(error)
        }
    }

    override func makeResult(from snapshot: MultiSourceSnapshot) throws -> Result {
        try resultSelector(snapshot.take())
    }

    @inline(never)
    func done(_ index: Int) {
        guard !storage.secondFlag(index) else { return }
        storage.setSecondFlag(index)
        doneCount += 1
        if doneCount == inputs.count {
            complete()
        }
    }

}

/// Observes source `index` of a combineLatest: stores each element, then lets the sink decide.
final class CombineLatestObserver<Element: Sendable>: MultiSourceObserver, ObserverType, @unchecked Sendable {
    // @unchecked: immutable; the storage is guarded by the sink's lock.
    private let sink: any CombineLatestSinkType
    /// The sink's lock, kept here so taking it reads one pointer.
    private let lock: Lock
    private let index: Int
    private let storage: UnsafeMutablePointer<Element>
    /// The sink's "has a value" flag for this source: whether `storage` is initialized.
    private let hasValue: UnsafePointer<Bool>

    init(sink: any CombineLatestSinkType, lock: Lock, storage: MultiSourceStorage, index: Int) {
        self.sink = sink
        self.lock = lock
        self.index = index
        self.storage = storage.values[index].assumingMemoryBound(to: Element.self)
        hasValue = storage.firstFlagPointer(index)
    }

    override func subscribe(to input: MultiSourceInput) {
        // `input` is the source this observer was made from: same element type.
        let source = unsafeDowncast(input, to: CombineLatestSourceOf<Element>.self).source
        source.subscribe(self, upstreamOf: self)
    }

    func onNext(_ element: Element) {
        lock.lock()
        // Stopped: the sink is being torn down; nothing more is combined.
        if sink.isDisposed {
            lock.unlock()
        } else if !hasValue.pointee {
            storage.initialize(to: element)
            sink.nextThenUnlock(index)
        } else if _isPOD(Element.self) {
            // A plain value: replacing it releases nothing.
            storage.pointee = element
            sink.nextThenUnlock(index)
        } else {
            replaceThenUnlock(with: element)
        }
        if sink.isDisposed { sink.finishIfStoppedHere() }
    }

    /// Called under the lock: replaces the latest element, which is released only once the
    /// lock is (its deinit may run user code). Out of line: in unspecialized code the moves
    /// cost value-witness calls that elements of plain values never need.
    @inline(never)
    private func replaceThenUnlock(with element: Element) {
        let replaced = storage.move()
        storage.initialize(to: element)
        sink.nextThenUnlock(index)
        withExtendedLifetime(replaced) {}
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            sourceFailed(error)
        case .completed:
            sourceCompleted()
        }
    }

    @inline(never)
    private func sourceFailed(_ error: any Error) {
        lock.withLock { sink.fail(error) }
        if sink.isDisposed { sink.finishIfStoppedHere() }
    }

    @inline(never)
    private func sourceCompleted() {
        lock.withLock { sink.done(index) }
        // Disposals only once the lock is released (see `LockedSink`).
        // Its subscription ends now (RxSwift's subscription logs show it); the sink may keep
        // combining its last element.
        dispose()
        if sink.isDisposed { sink.finishIfStoppedHere() }
    }
}

/// One source of a `zip`, typed, kept by the producer: it knows its element type and
/// subscribes itself into a sink that knows no element types (the same shape as
/// ``CombineLatestSource``, with a queue per source instead of a latest element).
class ZipSource<Result: Sendable>: MultiSourceInput, @unchecked Sendable {
    // @unchecked: subclasses are immutable.

    /// The observer of the source, queueing its elements in `sink`'s storage at `index`; not
    /// yet subscribed (see ``MultiSourceObserver``).
    func makeObserver<Observer: ObserverType>(for sink: ZipSink<Observer>, index: Int) -> SubscriptionSlot
    where Observer.Element == Result {
        preconditionFailure("ZipSource.makeObserver must be overridden")
    }
}

/// A `zip` source whose elements are `Element`; a sink keeps a queue of them.
final class ZipSourceOf<Element: Sendable, Result: Sendable>: ZipSource<Result>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>

    init<Source: ObservableConvertibleType>(_ source: Source) where Source.Element == Element {
        self.source = source.asObservable()
        super.init(
            size: MemoryLayout<FIFOQueue<Element>>.size,
            alignment: MemoryLayout<FIFOQueue<Element>>.alignment,
            elementSize: MemoryLayout<Element>.size,
            elementAlignment: MemoryLayout<Element>.alignment,
            takesAsBytes: false,
            isScalar: false
        )
    }

    override func initializeStorage(_ storage: UnsafeMutableRawPointer) {
        storage.initializeMemory(as: FIFOQueue<Element>.self, to: FIFOQueue())
    }

    override func deinitializeStorage(_ storage: UnsafeMutableRawPointer) {
        storage.assumingMemoryBound(to: FIFOQueue<Element>.self).deinitialize(count: 1)
    }

    override func makeObserver<Observer: ObserverType>(for sink: ZipSink<Observer>, index: Int) -> SubscriptionSlot
    where Observer.Element == Result {
        ZipObserver<Element, Observer>(sink: sink, index: index)
    }

    override func take(from storage: UnsafeMutableRawPointer, into slot: UnsafeMutableRawPointer) {
        // Only called when every queue has an element.
        guard let element = storage.assumingMemoryBound(to: FIFOQueue<Element>.self).pointee.dequeue() else {
            preconditionFailure("zip took an element of an empty queue")
        }
        slot.initializeMemory(as: Element.self, to: element)
    }

    override func deinitializeElement(_ slot: UnsafeMutableRawPointer) {
        slot.assumingMemoryBound(to: Element.self).deinitialize(count: 1)
    }
}

/// Takes the oldest queued element of source `index` (dequeued under the lock into a snapshot)
/// out of that snapshot, from a result function (typed by the arity overload that knows the
/// element types). A result function takes every element of its snapshot.
@inline(__always)
func dequeueFirst<Element>(
    _ storages: UnsafePointer<UnsafeMutableRawPointer>,
    _ index: Int,
    as _: Element.Type
) -> Element {
    storages[index].assumingMemoryBound(to: Element.self).move()
}

/// When a `zip` completes.
enum ZipCompletion: Sendable {
    /// When every source has completed (RxSwift 6's `zip(o1, o2, …)`).
    case whenAllComplete
    /// Also when an element arrives that can never be paired because every other source is
    /// done (RxSwift 6's `zip(collection)`).
    case whenUnpairable
}

/// The producer of every `zip`: its sources and the function that combines one element from
/// each queue into a result.
final class ZipProducer<Result: Sendable>: Producer<Result>, @unchecked Sendable {
    // @unchecked: immutable.
    /// Takes the oldest queued element of every source out of a snapshot (one per source, in
    /// order): runs without the lock, in the sink's delivery turn (see ``dequeueFirst(_:_:as:)``).
    typealias ResultSelector = @Sendable (UnsafePointer<UnsafeMutableRawPointer>) throws -> Result

    let inputs: [MultiSourceInput]
    let layout: MultiSourceLayout
    let completion: ZipCompletion
    let resultSelector: ResultSelector

    init(
        sources: [ZipSource<Result>],
        completion: ZipCompletion = .whenAllComplete,
        resultSelector: @escaping ResultSelector
    ) {
        inputs = sources
        layout = MultiSourceLayout(inputs)
        self.completion = completion
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Result {
        let sink = ZipSink(
            inputs: inputs,
            layout: layout,
            completion: completion,
            resultSelector: resultSelector,
            observer: observer,
            downstream: downstream
        )
        sink.run()
        return sink
    }
}

/// Zips N sources, RxSwift's way: each source's elements wait in its own queue; when every
/// queue holds at least one, the oldest of each are combined into a result. Completion
/// follows ``ZipCompletion``; any error, from a source or thrown by the result selector, ends
/// everything at once. The lock guards the state; results are decided under it (the oldest
/// elements dequeued into a snapshot), then made by the result selector and delivered after
/// it, one at a time, in the delivery turn (see ``LockedSink``): neither the selector nor the
/// release of the elements runs under the lock. The terminal event is sent, and the sources
/// disposed, only after it is released.
final class ZipSink<Observer: ObserverType>: LockedSink<Observer>, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: the mutable state is guarded by `lock`.
    typealias ResultSelector = ZipProducer<Observer.Element>.ResultSelector

    private let inputs: [MultiSourceInput]
    private let layout: MultiSourceLayout
    private let completion: ZipCompletion
    private let resultSelector: ResultSelector
    /// Every source's queue and its "is done" flag, and the turn's snapshot, in one allocation.
    private let storage: MultiSourceStorage

    // Guarded by `lock` (hence no dynamic exclusivity checks).
    @exclusivity(unchecked) private var queuedCounts: [Int]
    @exclusivity(unchecked) private var nonEmptyCount = 0
    @exclusivity(unchecked) private var doneCount = 0

    init(
        inputs: [MultiSourceInput],
        layout: MultiSourceLayout,
        completion: ZipCompletion,
        resultSelector: @escaping ResultSelector,
        observer: Observer,
        downstream: SubscriptionSlot?
    ) {
        self.inputs = inputs
        self.layout = layout
        self.completion = completion
        self.resultSelector = resultSelector
        storage = MultiSourceStorage(layout: layout, inputs: inputs)
        queuedCounts = Array(repeating: 0, count: inputs.count)
        super.init(observer: observer, downstream: downstream)
    }

    deinit {
        storage.release(inputs: inputs) { _ in true }
    }

    /// The queue of source `index`.
    func queue<Element>(at index: Int, as _: Element.Type) -> UnsafeMutablePointer<FIFOQueue<Element>> {
        storage.values[index].assumingMemoryBound(to: FIFOQueue<Element>.self)
    }

    /// Creates every source's observer and makes them this sink's subscription, then
    /// subscribes them in order (see ``MultiSourceObserver``).
    func run() {
        var slots: [SubscriptionSlot] = []
        slots.reserveCapacity(inputs.count)
        for index in 0..<inputs.count {
            let source = unsafeDowncast(inputs[index], to: ZipSource<Observer.Element>.self)
            slots.append(source.makeObserver(for: self, index: index))
        }
        setSubscription(SlotsDisposable(slots))
        MultiSourceObserver.subscribeAll(slots, to: inputs, until: self) { _ in
            preconditionFailure("zip sources are never scalar")
        }
        if inputs.isEmpty {
            lock.withLock { complete() }
            finishIfStopped()
        }
    }

    /// Source `index` has queued an element (called under `lock`, while not stopped); releases
    /// the lock, then delivers the result this made, if any.
    func nextThenUnlock(_ index: Int) {
        queuedCounts[index] += 1
        if queuedCounts[index] == 1 {
            nonEmptyCount += 1
        }
        if nonEmptyCount == queuedCounts.count {
            sendResultThenUnlock()
            return
        }
        if completion == .whenUnpairable && doneCount == inputs.count - 1 {
            complete()
        }
        lock.unlock()
    }

    private func sendResultThenUnlock() {
        for index in queuedCounts.indices {
            queuedCounts[index] -= 1
            if queuedCounts[index] == 0 {
                nonEmptyCount -= 1
            }
        }
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

    override func makeResult(from snapshot: MultiSourceSnapshot) throws -> Observer.Element {
        try resultSelector(snapshot.take())
    }

    /// Source `index` completed (called under `lock`).
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

/// Observes source `index` of a zip: queues each element, then lets the sink decide.
private final class ZipObserver<Element: Sendable, Observer: ObserverType>: MultiSourceObserver, ObserverType,
    @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: immutable; the queue is guarded by the sink's lock.
    private let sink: ZipSink<Observer>
    private let index: Int
    private let queue: UnsafeMutablePointer<FIFOQueue<Element>>

    init(sink: ZipSink<Observer>, index: Int) {
        self.sink = sink
        self.index = index
        queue = sink.queue(at: index, as: Element.self)
    }

    override func subscribe(to input: MultiSourceInput) {
        // `input` is the source this observer was made from: same element types.
        let source = unsafeDowncast(input, to: ZipSourceOf<Element, Observer.Element>.self).source
        source.subscribe(self, upstreamOf: self)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        sink.lock.lock()
        // Stopped: the sink is being torn down; the element can never be combined.
        if sink.isDisposed {
            sink.lock.unlock()
        } else {
            queue.pointee.enqueue(element)
            sink.nextThenUnlock(index)
        }
        sink.finishIfStopped()
    }

    func on(_ event: Event<Element>) {
        if case .next(let element) = event {
            onNext(element)
            return
        }
        var isCompleted = false
        sink.lock.lock()
        switch event {
        case .next:
            break
        case .error(let error):
            sink.fail(error)
        case .completed:
            isCompleted = true
            sink.done(index)
        }
        sink.lock.unlock()
        // Disposals only once the lock is released (see `LockedSink`).
        if isCompleted {
            // Its subscription ends now, as RxSwift's subscription logs show.
            dispose()
        }
        sink.finishIfStopped()
    }
}

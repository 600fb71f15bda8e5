/// One source of a `combineLatest`, typed, kept by the producer: it knows its element type and
/// subscribes itself into a sink that knows no element types.
///
/// This is what keeps the arity overloads thin: each overload lists its sources as
/// `CombineLatestSourceOf` values plus a result function, and one N-ary sink does the rest.
class CombineLatestSource<Result: Sendable>: MultiSourceInput, @unchecked Sendable {
    // @unchecked: subclasses are immutable.

    /// The observer of the source, storing its elements in `sink`'s storage at `index`; not
    /// yet subscribed (see ``MultiSourceObserver``).
    func makeObserver<Observer: ObserverType>(for sink: CombineLatestSink<Observer>, index: Int) -> SubscriptionSlot
    where Observer.Element == Result {
        preconditionFailure("CombineLatestSource.makeObserver must be overridden")
    }
}

/// A `combineLatest` source whose elements are `Element`; a sink stores its latest element.
final class CombineLatestSourceOf<Element: Sendable, Result: Sendable>: CombineLatestSource<Result>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    let source: Observable<Element>

    init<Source: ObservableConvertibleType>(_ source: Source) where Source.Element == Element {
        self.source = source.asObservable()
        super.init(size: MemoryLayout<Element>.size, alignment: MemoryLayout<Element>.alignment)
    }

    override func deinitializeStorage(_ storage: UnsafeMutableRawPointer) {
        storage.assumingMemoryBound(to: Element.self).deinitialize(count: 1)
    }

    override func makeObserver<Observer: ObserverType>(
        for sink: CombineLatestSink<Observer>,
        index: Int
    ) -> SubscriptionSlot where Observer.Element == Result {
        CombineLatestObserver<Element, Observer>(sink: sink, index: index)
    }
}

/// Reads the latest element of source `index` from a result function (typed by the arity
/// overload that knows the element types).
@inline(__always)
func latest<Element>(_ storages: UnsafePointer<UnsafeMutableRawPointer>, _ index: Int, as _: Element.Type) -> Element {
    storages[index].assumingMemoryBound(to: Element.self).pointee
}

/// The producer of every `combineLatest`: its sources and the function that turns their
/// latest elements into a result.
final class CombineLatestProducer<Result: Sendable>: Producer<Result>, @unchecked Sendable {
    // @unchecked: immutable.
    /// Reads every source's latest element from the storages (one per source, in order).
    typealias ResultSelector = @Sendable (UnsafePointer<UnsafeMutableRawPointer>) throws -> Result

    let inputs: [MultiSourceInput]
    let layout: MultiSourceLayout
    let resultSelector: ResultSelector

    init(sources: [CombineLatestSource<Result>], resultSelector: @escaping ResultSelector) {
        inputs = sources
        layout = MultiSourceLayout(inputs)
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Result {
        let sink = CombineLatestSink(
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
/// per-source observers hold nothing but a pointer. One recursive lock serializes forwarding
/// of results and guards the state; the terminal event is sent, and the sources disposed, only
/// after it is released (see ``Sink/stopForwarding(recording:in:)``).
final class CombineLatestSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: the mutable state is guarded by `lock`.
    typealias ResultSelector = CombineLatestProducer<Observer.Element>.ResultSelector

    /// Serializes forwarding from every source and guards the state (RxSwift's design).
    let lock = Lock(recursive: true)
    private let inputs: [MultiSourceInput]
    private let resultSelector: ResultSelector
    /// Every source's latest element and flags ("has a value", "is done"), in one allocation.
    private let storage: MultiSourceStorage

    // Guarded by `lock` (hence no dynamic exclusivity checks).
    @exclusivity(unchecked) private var valueCount = 0
    @exclusivity(unchecked) private var doneCount = 0
    /// How the sink ends, decided under `lock` and sent after it (see `Sink.stopForwarding(recording:in:)`).
    @exclusivity(unchecked) private var pendingTerminal = PendingTerminal()

    init(
        inputs: [MultiSourceInput],
        layout: MultiSourceLayout,
        resultSelector: @escaping ResultSelector,
        observer: Observer,
        downstream: SubscriptionSlot?
    ) {
        self.inputs = inputs
        self.resultSelector = resultSelector
        storage = MultiSourceStorage(layout: layout, inputs: inputs)
        super.init(observer: observer, downstream: downstream)
    }

    deinit {
        storage.release(inputs: inputs) { storage.firstFlag($0) }
    }

    /// The storage of source `index`'s latest element.
    func storage<Element>(at index: Int, as _: Element.Type) -> UnsafeMutablePointer<Element> {
        storage.values[index].assumingMemoryBound(to: Element.self)
    }

    /// Creates every source's observer and makes them this sink's subscription, then
    /// subscribes them in order (see ``MultiSourceObserver``).
    func run() {
        var slots: [SubscriptionSlot] = []
        slots.reserveCapacity(inputs.count)
        for index in 0..<inputs.count {
            let source = unsafeDowncast(inputs[index], to: CombineLatestSource<Observer.Element>.self)
            slots.append(source.makeObserver(for: self, index: index))
        }
        setSubscription(SlotsDisposable(slots))
        MultiSourceObserver.subscribeAll(slots, to: inputs, until: self)
        if inputs.isEmpty {
            // As RxSwift 6 does: the result for no elements, then completion.
            lock.withLock {
                sendResult()
                complete()
            }
            finishIfStopped()
        }
    }

    /// Whether source `index` has sent an element (called under `lock`).
    func hasValue(at index: Int) -> Bool {
        storage.firstFlag(index)
    }

    /// Source `index` has stored a new latest element (called under `lock`, while not stopped).
    func next(_ index: Int) {
        if !storage.firstFlag(index) {
            storage.setFirstFlag(index)
            valueCount += 1
        }
        if valueCount == inputs.count {
            sendResult()
        } else if doneCount - (storage.secondFlag(index) ? 1 : 0) == inputs.count - 1 {
            // Every other source is done, and one of them never sent anything.
            complete()
        }
    }

    private func sendResult() {
        let result: Observer.Element
        do {
            result = try resultSelector(storage.values)
        } catch {
            fail(error)
            return
        }
        forwardOn(.next(result))
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

    /// Called under `lock`: ends with `error`, sent once the lock is released.
    @inline(never)
    func fail(_ error: any Error) {
        stopForwarding(recording: .failed(error), in: &pendingTerminal)
    }

    /// Called under `lock`: ends with completion, sent once the lock is released.
    @inline(never)
    private func complete() {
        stopForwarding(recording: .completed, in: &pendingTerminal)
    }

    /// Call after releasing `lock`: if this thread stopped the sink, sends the terminal event
    /// and disposes every source.
    @inline(__always)
    func finishIfStopped() {
        if isDisposed { finishIfStoppedHere() }
    }

    @inline(never)
    private func finishIfStoppedHere() {
        finish(lock.withLock { pendingTerminal.takeIfRecordedHere() })
    }
}

/// Observes source `index` of a combineLatest: stores each element, then lets the sink decide.
private final class CombineLatestObserver<Element: Sendable, Observer: ObserverType>: MultiSourceObserver,
    ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: immutable; the storage is guarded by the sink's lock.
    private let sink: CombineLatestSink<Observer>
    private let index: Int
    private let storage: UnsafeMutablePointer<Element>

    init(sink: CombineLatestSink<Observer>, index: Int) {
        self.sink = sink
        self.index = index
        storage = sink.storage(at: index, as: Element.self)
    }

    override func subscribe(to input: MultiSourceInput) {
        // `input` is the source this observer was made from: same element types.
        let source = unsafeDowncast(input, to: CombineLatestSourceOf<Element, Observer.Element>.self).source
        source.subscribe(self, upstreamOf: self)
    }

    func on(_ event: Event<Element>) {
        var isCompleted = false
        sink.lock.lock()
        switch event {
        case .next(let element):
            // Stopped: the sink is being torn down; nothing more is combined.
            if !sink.isDisposed {
                if sink.hasValue(at: index) {
                    storage.pointee = element
                } else {
                    storage.initialize(to: element)
                }
                sink.next(index)
            }
        case .error(let error):
            sink.fail(error)
        case .completed:
            isCompleted = true
            sink.done(index)
        }
        sink.lock.unlock()
        // Disposals only once the lock is released (see `Sink.stopForwarding(recording:in:)`).
        if isCompleted {
            // Its subscription ends now (RxSwift's subscription logs show it); the sink may
            // keep combining its last element.
            dispose()
        }
        sink.finishIfStopped()
    }
}

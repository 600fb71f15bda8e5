/// One source of a `zip`, typed, kept by the producer: it knows how to queue its element type
/// and subscribes itself into a sink that knows no element types (the same shape as
/// ``CombineLatestSource``, with a queue per source instead of a latest element).
class ZipSource<Result: Sendable>: @unchecked Sendable {
    // @unchecked: subclasses are immutable.

    /// Allocates an empty queue of elements.
    func allocateStorage() -> UnsafeMutableRawPointer {
        preconditionFailure("ZipSource.allocateStorage must be overridden")
    }

    /// Destroys and frees a queue made by ``allocateStorage()``.
    func releaseStorage(_ storage: UnsafeMutableRawPointer) {
        preconditionFailure("ZipSource.releaseStorage must be overridden")
    }

    /// Subscribes to the source, queueing its elements in `sink`'s storage at `index`.
    func subscribe<Observer: ObserverType>(_ sink: ZipSink<Observer>, index: Int) -> SubscriptionSlot
    where Observer.Element == Result {
        preconditionFailure("ZipSource.subscribe must be overridden")
    }
}

/// A `zip` source whose elements are `Element`.
final class ZipSourceOf<Element: Sendable, Result: Sendable>: ZipSource<Result>, @unchecked Sendable {
    // @unchecked: immutable.
    private let source: Observable<Element>

    init<Source: ObservableConvertibleType>(_ source: Source) where Source.Element == Element {
        self.source = source.asObservable()
    }

    override func allocateStorage() -> UnsafeMutableRawPointer {
        let queue = UnsafeMutablePointer<FIFOQueue<Element>>.allocate(capacity: 1)
        queue.initialize(to: FIFOQueue())
        return UnsafeMutableRawPointer(queue)
    }

    override func releaseStorage(_ storage: UnsafeMutableRawPointer) {
        let queue = storage.assumingMemoryBound(to: FIFOQueue<Element>.self)
        queue.deinitialize(count: 1)
        queue.deallocate()
    }

    override func subscribe<Observer: ObserverType>(_ sink: ZipSink<Observer>, index: Int) -> SubscriptionSlot
    where Observer.Element == Result {
        let observer = ZipObserver<Element, Observer>(sink: sink, index: index)
        observer.setSubscription(source.subscribe(observer))
        return observer
    }
}

/// Takes the oldest queued element of source `index`, from a result function (typed by the
/// arity overload that knows the element types). Only called when every queue has one.
@inline(__always)
func dequeueFirst<Element>(
    _ storages: UnsafePointer<UnsafeMutableRawPointer>,
    _ index: Int,
    as _: Element.Type
) -> Element {
    guard let element = storages[index].assumingMemoryBound(to: FIFOQueue<Element>.self).pointee.dequeue() else {
        preconditionFailure("zip asked for an element of an empty queue")
    }
    return element
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
    /// Dequeues one element of every source from the storages (one queue per source, in order).
    typealias ResultSelector = @Sendable (UnsafePointer<UnsafeMutableRawPointer>) throws -> Result

    let sources: [ZipSource<Result>]
    let completion: ZipCompletion
    let resultSelector: ResultSelector

    init(
        sources: [ZipSource<Result>],
        completion: ZipCompletion = .whenAllComplete,
        resultSelector: @escaping ResultSelector
    ) {
        self.sources = sources
        self.completion = completion
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        cancel: any Cancelable
    ) -> (sink: any Disposable, subscription: any Disposable) where Observer.Element == Result {
        let sink = ZipSink(
            sources: sources,
            completion: completion,
            resultSelector: resultSelector,
            observer: observer,
            cancel: cancel
        )
        return (sink, sink.run())
    }
}

/// Zips N sources, RxSwift's way: each source's elements wait in its own queue; when every
/// queue holds at least one, the oldest of each are combined into a result. Completion
/// follows ``ZipCompletion``; any error, from a source or thrown by the result selector, ends
/// everything at once. One recursive lock serializes forwarding and guards the state.
final class ZipSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable where Observer.Element: Sendable {
    // @unchecked: the mutable state is guarded by `lock`.
    typealias ResultSelector = ZipProducer<Observer.Element>.ResultSelector

    let lock = Lock(recursive: true)
    private let sources: [ZipSource<Observer.Element>]
    private let completion: ZipCompletion
    private let resultSelector: ResultSelector
    /// One queue per source; written only in `init`.
    private let storages: UnsafeMutablePointer<UnsafeMutableRawPointer>

    // Guarded by `lock` (hence no dynamic exclusivity checks).
    @exclusivity(unchecked) private var queuedCounts: [Int]
    @exclusivity(unchecked) private var nonEmptyCount = 0
    @exclusivity(unchecked) private var isDone: [Bool]
    @exclusivity(unchecked) private var doneCount = 0

    init(
        sources: [ZipSource<Observer.Element>],
        completion: ZipCompletion,
        resultSelector: @escaping ResultSelector,
        observer: Observer,
        cancel: any Cancelable
    ) {
        self.sources = sources
        self.completion = completion
        self.resultSelector = resultSelector
        storages = .allocate(capacity: max(1, sources.count))
        for (index, source) in sources.enumerated() {
            (storages + index).initialize(to: source.allocateStorage())
        }
        queuedCounts = Array(repeating: 0, count: sources.count)
        isDone = Array(repeating: false, count: sources.count)
        super.init(observer: observer, cancel: cancel)
    }

    deinit {
        for (index, source) in sources.enumerated() {
            source.releaseStorage(storages[index])
        }
        storages.deinitialize(count: sources.count)
        storages.deallocate()
    }

    /// The queue of source `index`.
    func queue<Element>(at index: Int, as _: Element.Type) -> UnsafeMutablePointer<FIFOQueue<Element>> {
        storages[index].assumingMemoryBound(to: FIFOQueue<Element>.self)
    }

    func run() -> any Disposable {
        var slots: [SubscriptionSlot] = []
        slots.reserveCapacity(sources.count)
        for (index, source) in sources.enumerated() {
            if isDisposed { break }
            slots.append(source.subscribe(self, index: index))
        }
        if sources.isEmpty {
            lock.withLock { complete() }
        }
        return SlotsDisposable(slots)
    }

    /// Source `index` has queued an element (called under `lock`).
    func next(_ index: Int) {
        queuedCounts[index] += 1
        if queuedCounts[index] == 1 {
            nonEmptyCount += 1
        }
        if nonEmptyCount == queuedCounts.count {
            sendResult()
        } else if completion == .whenUnpairable && doneCount == isDone.count - 1 {
            complete()
        }
    }

    private func sendResult() {
        for index in queuedCounts.indices {
            queuedCounts[index] -= 1
            if queuedCounts[index] == 0 {
                nonEmptyCount -= 1
            }
        }
        let result: Observer.Element
        do {
            result = try resultSelector(storages)
        } catch {
            fail(error)
            return
        }
        forwardOn(.next(result))
    }

    /// Source `index` completed (called under `lock`).
    @inline(never)
    func done(_ index: Int) {
        guard !isDone[index] else { return }
        isDone[index] = true
        doneCount += 1
        if doneCount == isDone.count {
            complete()
        }
    }

    /// Called under `lock`.
    @inline(never)
    func fail(_ error: any Error) {
        forwardOn(.error(error))
        dispose()
    }

    @inline(never)
    private func complete() {
        forwardOn(.completed)
        dispose()
    }
}

/// Observes source `index` of a zip: queues each element, then lets the sink decide.
private final class ZipObserver<Element: Sendable, Observer: ObserverType>: SubscriptionSlot, ObserverType,
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

    func on(_ event: Event<Element>) {
        sink.lock.lock()
        defer { sink.lock.unlock() }
        switch event {
        case .next(let element):
            queue.pointee.enqueue(element)
            sink.next(index)
        case .error(let error):
            sink.fail(error)
        case .completed:
            // Its subscription ends now, as RxSwift's subscription logs show.
            dispose()
            sink.done(index)
        }
    }
}

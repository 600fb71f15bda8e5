extension ObservableType {
    /// Sends each intermediate result of folding the elements into `seed` with `accumulator`.
    ///
    /// The accumulation is mutated in place, which avoids copying large values (arrays,
    /// dictionaries) for every element. Each subscription starts again from `seed`.
    /// `accumulator` runs synchronously on the thread that delivers each element. If it
    /// throws, the error is sent downstream and the source subscription is disposed.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).scan(into: [Int]()) { $0.append($1) }
    /// // Prints: next([1]), next([1, 2]), next([1, 2, 3]), completed
    /// ```
    ///
    /// - Parameters:
    ///   - seed: The initial accumulation.
    ///   - accumulator: Folds an element into the accumulation.
    /// - Returns: An observable of the accumulation after each element.
    public func scan<Accumulate: Sendable>(
        into seed: Accumulate,
        accumulator: @escaping @Sendable (inout Accumulate, Element) throws -> Void
    ) -> Observable<Accumulate> {
        ScanProducer(source: asObservable(), seed: seed, accumulator: accumulator)
    }

    /// Sends each intermediate result of folding the elements into `seed` with `accumulator`.
    ///
    /// Each subscription starts again from `seed`. `accumulator` runs synchronously on the
    /// thread that delivers each element. If it throws, the error is sent downstream and the
    /// source subscription is disposed. For only the final result, use
    /// ``ObservableType/reduce(_:accumulator:)``.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).scan(0) { $0 + $1 }
    /// // Prints: next(1), next(3), next(6), completed
    /// ```
    ///
    /// - Parameters:
    ///   - seed: The initial accumulation.
    ///   - accumulator: Returns the next accumulation from the current one and an element.
    /// - Returns: An observable of the accumulation after each element.
    public func scan<Accumulate: Sendable>(
        _ seed: Accumulate,
        accumulator: @escaping @Sendable (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        ScanProducer(source: asObservable(), seed: seed) { accumulation, element in
            accumulation = try accumulator(accumulation, element)
        }
    }
}

private final class ScanProducer<SourceElement: Sendable, Accumulate: Sendable>: Producer<Accumulate>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    typealias Accumulator = @Sendable (inout Accumulate, SourceElement) throws -> Void

    let source: Observable<SourceElement>
    let seed: Accumulate
    let accumulator: Accumulator

    init(source: Observable<SourceElement>, seed: Accumulate, accumulator: @escaping Accumulator) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Accumulate {
        let sink = ScanSink<SourceElement, Observer>(
            seed: seed,
            accumulator: accumulator,
            observer: observer,
            downstream: downstream
        )
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class ScanSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
{
    // @unchecked: `accumulation` is touched only from `on(_:)`, which the source calls serially.
    typealias Accumulate = Observer.Element
    typealias Accumulator = @Sendable (inout Accumulate, SourceElement) throws -> Void

    private let accumulator: Accumulator
    private var accumulation: Accumulate

    init(seed: Accumulate, accumulator: @escaping Accumulator, observer: Observer, downstream: SubscriptionSlot?) {
        self.accumulator = accumulator
        accumulation = seed
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: SourceElement) {
        // After a terminal event a synchronous source may still be mid-loop; don't run user code.
        guard !isDisposed else { return }
        do {
            try accumulator(&accumulation, element)
        } catch {
            forwardErrorAndDispose(error)
            return
        }
        forwardNext(accumulation)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            guard !isDisposed else { return }
            forwardOn(.error(error))
            dispose()
        case .completed:
            guard !isDisposed else { return }
            forwardOn(.completed)
            dispose()
        }
    }
}

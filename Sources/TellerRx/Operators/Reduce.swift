extension ObservableType {
    /// Folds every element into `seed` with `accumulator`, then sends `mapResult` of the final
    /// accumulation when the source completes.
    ///
    /// Each subscription starts again from `seed`. The closures run synchronously on the
    /// thread that delivers each element (`mapResult` on the one that delivers completion).
    /// If either throws, the error is sent downstream and the source subscription is disposed.
    /// A source error is forwarded and nothing is sent for the accumulation. For the
    /// intermediate results, use ``ObservableType/scan(_:accumulator:)``.
    ///
    /// - Parameters:
    ///   - seed: The initial accumulation.
    ///   - accumulator: Returns the next accumulation from the current one and an element.
    ///   - mapResult: Turns the final accumulation into the single result.
    /// - Returns: An observable that sends one element, the result, and completes.
    public func reduce<Accumulate: Sendable, Result: Sendable>(
        _ seed: Accumulate,
        accumulator: @escaping @Sendable (Accumulate, Element) throws -> Accumulate,
        mapResult: @escaping @Sendable (Accumulate) throws -> Result
    ) -> Observable<Result> {
        ReduceProducer(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: mapResult)
    }

    /// Folds every element into `seed` with `accumulator`, then sends the final accumulation
    /// when the source completes.
    ///
    /// Each subscription starts again from `seed`. `accumulator` runs synchronously on the
    /// thread that delivers each element. If it throws, the error is sent downstream and the
    /// source subscription is disposed. A source error is forwarded instead of a result.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).reduce(0) { $0 + $1 }
    /// // Prints: next(6), completed
    /// ```
    ///
    /// - Parameters:
    ///   - seed: The initial accumulation.
    ///   - accumulator: Returns the next accumulation from the current one and an element.
    /// - Returns: An observable that sends one element, the final accumulation, and completes.
    public func reduce<Accumulate: Sendable>(
        _ seed: Accumulate,
        accumulator: @escaping @Sendable (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        ReduceProducer(source: asObservable(), seed: seed, accumulator: accumulator) { $0 }
    }
}

private final class ReduceProducer<SourceElement: Sendable, Accumulate: Sendable, Result: Sendable>:
    Producer<Result>, @unchecked Sendable
{
    // @unchecked: immutable.
    typealias Accumulator = @Sendable (Accumulate, SourceElement) throws -> Accumulate
    typealias MapResult = @Sendable (Accumulate) throws -> Result

    let source: Observable<SourceElement>
    let seed: Accumulate
    let accumulator: Accumulator
    let mapResult: MapResult

    init(
        source: Observable<SourceElement>,
        seed: Accumulate,
        accumulator: @escaping Accumulator,
        mapResult: @escaping MapResult
    ) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Result {
        let sink = ReduceSink<SourceElement, Accumulate, Observer>(
            parent: self,
            observer: observer,
            downstream: downstream
        )
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class ReduceSink<SourceElement: Sendable, Accumulate: Sendable, Observer: ObserverType>: Sink<Observer>,
    ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `accumulation` is touched only from `on(_:)`, which the source calls serially.
    typealias Result = Observer.Element

    private let parent: ReduceProducer<SourceElement, Accumulate, Result>
    private var accumulation: Accumulate

    init(parent: ReduceProducer<SourceElement, Accumulate, Result>, observer: Observer, downstream: SubscriptionSlot?) {
        self.parent = parent
        accumulation = parent.seed
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: SourceElement) {
        // After a terminal event a synchronous source may still be mid-loop; don't run user code.
        guard !isDisposed else { return }
        do {
            accumulation = try parent.accumulator(accumulation, element)
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<SourceElement>) {
        // After a terminal event a synchronous source may still be mid-loop; don't run user code.
        guard !isDisposed else { return }
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            let result: Result
            do {
                result = try parent.mapResult(accumulation)
            } catch {
                forwardOn(.error(error))
                dispose()
                return
            }
            forwardOn(.next(result))
            forwardOn(.completed)
            dispose()
        }
    }
}

extension ObservableType {
    /// Subscribes to the sequences of `sequence` in turn, moving on to the next one each time
    /// the current one fails, until one completes.
    ///
    /// The first sequence is subscribed on the subscribing thread; each later one on the thread
    /// that delivered the previous one's error, after that failed subscription is disposed. A
    /// sequence that fails synchronously while being subscribed is replaced in a loop, not
    /// recursively. Elements of every attempt are passed on. When a sequence completes, so
    /// does the result; when the last one fails, its error is sent downstream. An empty
    /// `sequence` completes at once. `sequence` is iterated lazily, once per subscription.
    ///
    /// ```swift
    /// Observable.catch(sequence: [primaryServer, mirror, Observable.just(cachedValue)])
    /// ```
    ///
    /// - Parameter sequence: The sequences to try, in order.
    /// - Returns: The elements of each attempt, ending like the first one that completes or
    ///   like the last one.
    public static func `catch`<Sources: Sequence & Sendable>(sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        CatchSequenceProducer(sources: sequence)
    }

    /// The RxSwift 5 spelling of ``ObservableType/catch(sequence:)``; identical behaviour.
    ///
    /// - Parameter sequence: The sequences to try, in order.
    /// - Returns: The elements of each attempt, ending like the first one that completes or
    ///   like the last one.
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sources: Sequence & Sendable>(_ sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        CatchSequenceProducer(sources: sequence)
    }
}

private final class CatchSequenceProducer<Sources: Sequence & Sendable, Element: Sendable>: TrampolinedProducer<
    Element
>, @unchecked Sendable
where Sources.Element == Observable<Element> {
    // @unchecked: immutable.
    let sources: Sources

    init(sources: Sources) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        cancel: any Cancelable
    ) -> (sink: any Disposable, subscription: any Disposable) where Observer.Element == Element {
        let sink = CatchSequenceSink(sources: sources.makeIterator(), observer: observer, cancel: cancel)
        sink.requestNext(after: nil)
        return (sink, sink.subscription)
    }
}

private final class CatchSequenceSink<Sources: IteratorProtocol, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Sources.Element == Observable<Observer.Element> {
    // @unchecked: `state` is locked; `sources` is only touched by the thread running the
    // resubscription loop (the trampoline admits one at a time, handing over under the lock);
    // `subscription` is thread-safe.
    typealias Element = Observer.Element

    private struct State {
        var trampoline = ResubscribeTrampoline()
        var lastError: (any Error)?
    }

    @exclusivity(unchecked) private var sources: Sources
    private let state = LockedState(State())
    let subscription = SerialDisposable()

    init(sources: Sources, observer: Observer, cancel: any Cancelable) {
        self.sources = sources
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            requestNext(after: error)
        }
    }

    /// Subscribes the next source, or leaves it to the loop already running.
    func requestNext(after error: (any Error)?) {
        let mustRun = state.withLock { state in
            if let error { state.lastError = error }
            return state.trampoline.request()
        }
        guard mustRun else { return }
        while state.withLock({ $0.trampoline.take() }) {
            if isDisposed { return }
            guard let next = sources.next() else {
                let lastError = state.withLock { $0.lastError }
                forwardOn(lastError.map { .error($0) } ?? .completed)
                dispose()
                return
            }
            // Dispose the failed attempt before starting the next one.
            subscription.disposable = Disposables.create()
            subscription.disposable = next.subscribe(self)
        }
    }
}

extension ObservableType {
    /// An observable made by a loop: sends `initialState`, then `iterate(state)` and so on,
    /// while `condition` holds; completes at the first state that fails it.
    ///
    /// Each element is one scheduled step on `scheduler`; `iterate` for a state runs at the
    /// start of the step after it was sent, so disposing between steps stops the loop before
    /// another `iterate`. The closures run on `scheduler`. If either throws, the error is sent
    /// and the loop stops.
    ///
    /// ```swift
    /// Observable.generate(initialState: 1, condition: { $0 < 10 }, iterate: { $0 * 2 })
    /// // Prints: next(1), next(2), next(4), next(8), completed
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The first state.
    ///   - condition: Returns `false` for the state that ends the sequence.
    ///   - scheduler: Where the loop runs and the elements are sent.
    ///   - iterate: Returns the state after a given one.
    /// - Returns: An observable of the states.
    public static func generate(
        initialState: Element,
        condition: @escaping @Sendable (Element) throws -> Bool,
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping @Sendable (Element) throws -> Element
    ) -> Observable<Element> {
        GenerateProducer(initialState: initialState, condition: condition, scheduler: scheduler, iterate: iterate)
    }
}

private final class GenerateProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    typealias Condition = @Sendable (Element) throws -> Bool
    typealias Iterate = @Sendable (Element) throws -> Element

    let initialState: Element
    let condition: Condition
    let scheduler: any ImmediateSchedulerType
    let iterate: Iterate

    init(
        initialState: Element,
        condition: @escaping Condition,
        scheduler: any ImmediateSchedulerType,
        iterate: @escaping Iterate
    ) {
        self.initialState = initialState
        self.condition = condition
        self.scheduler = scheduler
        self.iterate = iterate
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = GenerateSink(observer: observer, downstream: downstream)
        let condition = condition
        let iterate = iterate
        // The recursion carries the state (to send as is first, then to iterate from), so the
        // loop needs no mutable storage of its own.
        let subscription = scheduler.scheduleRecursive(Step.first(initialState)) { step, recurse in
            // A step already queued when the sink was disposed must not run the closures.
            if sink.isDisposed { return }
            do {
                let state =
                    switch step {
                    case .first(let state): state
                    case .after(let previous): try iterate(previous)
                    }
                guard try condition(state) else {
                    sink.forwardOn(.completed)
                    sink.dispose()
                    return
                }
                sink.forwardOn(.next(state))
                recurse(.after(state))
            } catch {
                sink.forwardOn(.error(error))
                sink.dispose()
            }
        }
        sink.setSubscription(subscription)
        return sink
    }

    /// One step of the loop: the first state as is, or the state to iterate from.
    enum Step: Sendable {
        case first(Element)
        case after(Element)
    }
}

private final class GenerateSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    // @unchecked: nothing beyond `Sink`.
}

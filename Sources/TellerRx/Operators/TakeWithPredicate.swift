/// Whether `take(while:behavior:)` and `take(until:behavior:)` also send the element that
/// ends the sequence.
public enum TakeBehavior: Sendable {
    /// Send the element that ends the sequence, then complete.
    case inclusive
    /// Complete without sending the element that ends the sequence.
    case exclusive
}

extension ObservableType {
    /// Sends elements while `predicate` returns `true`; completes at the first element for
    /// which it returns `false`, and disposes the source.
    ///
    /// `predicate` runs synchronously on the thread that delivers each element. If it throws,
    /// the error is sent downstream and the source subscription is disposed.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 1).take(while: { $0 < 3 })
    /// // Prints: next(1), next(2), completed
    /// Observable.of(1, 2, 3, 1).take(while: { $0 < 3 }, behavior: .inclusive)
    /// // Prints: next(1), next(2), next(3), completed
    /// ```
    ///
    /// - Parameters:
    ///   - predicate: Returns `false` for the element that ends the sequence.
    ///   - behavior: Whether that element is sent too; `.exclusive` by default.
    /// - Returns: An observable of the leading elements that satisfy `predicate`.
    public func take(
        while predicate: @escaping @Sendable (Element) throws -> Bool,
        behavior: TakeBehavior = .exclusive
    ) -> Observable<Element> {
        TakeWithPredicateProducer(source: asObservable(), stopWhen: false, behavior: behavior, predicate: predicate)
    }

    /// Sends elements until `predicate` returns `true`; completes at that element and disposes
    /// the source.
    ///
    /// `predicate` runs synchronously on the thread that delivers each element. If it throws,
    /// the error is sent downstream and the source subscription is disposed.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 1).take(until: { $0 == 2 }, behavior: .inclusive)
    /// // Prints: next(1), next(2), completed
    /// ```
    ///
    /// - Parameters:
    ///   - predicate: Returns `true` for the element that ends the sequence.
    ///   - behavior: Whether that element is sent too; `.exclusive` by default.
    /// - Returns: An observable of the elements before the first one that satisfies `predicate`.
    public func take(
        until predicate: @escaping @Sendable (Element) throws -> Bool,
        behavior: TakeBehavior = .exclusive
    ) -> Observable<Element> {
        TakeWithPredicateProducer(source: asObservable(), stopWhen: true, behavior: behavior, predicate: predicate)
    }

    /// The RxSwift 5 spelling of ``ObservableType/take(until:behavior:)``.
    ///
    /// - Parameters:
    ///   - behavior: Whether the element that ends the sequence is sent too.
    ///   - predicate: Returns `true` for the element that ends the sequence.
    /// - Returns: An observable of the elements before the first one that satisfies `predicate`.
    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(
        _ behavior: TakeBehavior,
        predicate: @escaping @Sendable (Element) throws -> Bool
    ) -> Observable<Element> {
        take(until: predicate, behavior: behavior)
    }

    /// The RxSwift 5 spelling of ``ObservableType/take(while:behavior:)``.
    ///
    /// - Parameter predicate: Returns `false` for the element that ends the sequence.
    /// - Returns: An observable of the leading elements that satisfy `predicate`.
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }
}

private final class TakeWithPredicateProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    typealias Predicate = @Sendable (Element) throws -> Bool

    let source: Observable<Element>
    /// The predicate result that ends the sequence: `false` for `while`, `true` for `until`.
    /// Stored instead of wrapping `predicate` in a negating closure, which would add a call
    /// per element.
    let stopWhen: Bool
    let behavior: TakeBehavior
    let predicate: Predicate

    init(source: Observable<Element>, stopWhen: Bool, behavior: TakeBehavior, predicate: @escaping Predicate) {
        self.source = source
        self.stopWhen = stopWhen
        self.behavior = behavior
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = TakeWithPredicateSink(parent: self, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class TakeWithPredicateSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `isRunning` is touched only from `on(_:)`, which the source calls serially.
    typealias Element = Observer.Element

    private let parent: TakeWithPredicateProducer<Element>
    private var isRunning = true

    init(parent: TakeWithPredicateProducer<Element>, observer: Observer, downstream: SubscriptionSlot?) {
        self.parent = parent
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        guard isRunning, !isDisposed else { return }
        let stops: Bool
        do {
            stops = try parent.predicate(element) == parent.stopWhen
        } catch {
            isRunning = false
            forwardErrorAndDispose(error)
            return
        }
        guard stops else {
            forwardNext(element)
            return
        }
        // Stopped before forwarding, so an element sent re-entrantly from downstream is dropped.
        isRunning = false
        if parent.behavior == .inclusive {
            forwardNext(element)
        }
        forwardTerminal(.completed)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

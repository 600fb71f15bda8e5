extension ObservableType where Element: Equatable {
    /// Drops each element equal (`==`) to the one sent before it.
    ///
    /// Runs on the thread that delivers each element.
    ///
    /// ```swift
    /// Observable.of(1, 1, 2, 2, 1).distinctUntilChanged()
    /// // Prints: next(1), next(2), next(1), completed
    /// ```
    ///
    /// - Returns: An observable without consecutive duplicates.
    public func distinctUntilChanged() -> Observable<Element> {
        DistinctEquatableProducer(source: asObservable())
    }
}

extension ObservableType {
    /// Drops each element whose key equals the key of the last element sent.
    ///
    /// `keySelector` runs synchronously on the thread that delivers each element. If it
    /// throws, the error is sent downstream and the source subscription is disposed.
    ///
    /// - Parameter keySelector: Computes the key compared for each element.
    /// - Returns: An observable without consecutive elements of equal keys.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping @Sendable (Element) throws -> Key
    ) -> Observable<Element> {
        DistinctUntilChangedProducer(source: asObservable(), keySelector: keySelector, comparer: areEqual)
    }

    /// Drops each element that `comparer` calls equal to the last element sent.
    ///
    /// Each element is compared with the last one *sent*, not the last one received.
    /// `comparer` runs synchronously on the thread that delivers each element. If it throws,
    /// the error is sent downstream and the source subscription is disposed.
    ///
    /// - Parameter comparer: Returns `true` when two elements count as equal.
    /// - Returns: An observable without consecutive elements that `comparer` calls equal.
    public func distinctUntilChanged(
        _ comparer: @escaping @Sendable (Element, Element) throws -> Bool
    ) -> Observable<Element> {
        DistinctUntilChangedProducer(source: asObservable(), keySelector: { $0 }, comparer: comparer)
    }

    /// Drops each element whose key `comparer` calls equal to the key of the last element sent.
    ///
    /// The closures run synchronously on the thread that delivers each element. If either
    /// throws, the error is sent downstream and the source subscription is disposed.
    ///
    /// - Parameters:
    ///   - keySelector: Computes the key compared for each element.
    ///   - comparer: Returns `true` when two keys count as equal.
    /// - Returns: An observable without consecutive elements of equal keys.
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping @Sendable (Element) throws -> Key,
        comparer: @escaping @Sendable (Key, Key) throws -> Bool
    ) -> Observable<Element> {
        DistinctUntilChangedProducer(source: asObservable(), keySelector: keySelector, comparer: comparer)
    }

    /// Drops each element whose value at `keyPath` equals that of the last element sent.
    ///
    /// ```swift
    /// users.distinctUntilChanged(at: \.name)
    /// ```
    ///
    /// - Parameter keyPath: The property compared with `==`; a key path literal is `Sendable`.
    /// - Returns: An observable without consecutive elements of equal property values.
    public func distinctUntilChanged<Property: Equatable & SendableMetatype>(
        at keyPath: any KeyPath<Element, Property> & Sendable
    ) -> Observable<Element> {
        DistinctUntilChangedProducer(
            source: asObservable(),
            keySelector: { $0 },
            comparer: { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
        )
    }
}

@Sendable private func areEqual<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
    lhs == rhs
}

private final class DistinctUntilChangedProducer<Element: Sendable, Key>: Producer<Element>,
    @unchecked Sendable
{
    // @unchecked: immutable.
    typealias KeySelector = @Sendable (Element) throws -> Key
    typealias Comparer = @Sendable (Key, Key) throws -> Bool

    let source: Observable<Element>
    let keySelector: KeySelector
    let comparer: Comparer

    init(source: Observable<Element>, keySelector: @escaping KeySelector, comparer: @escaping Comparer) {
        self.source = source
        self.keySelector = keySelector
        self.comparer = comparer
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = DistinctUntilChangedSink(parent: self, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class DistinctUntilChangedSink<Observer: ObserverType, Key>: Sink<Observer>, ObserverType,
    @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `lastKey` is touched only from `on(_:)`, which the source calls serially.
    typealias Element = Observer.Element

    private let parent: DistinctUntilChangedProducer<Element, Key>
    /// The key of the last element sent; `nil` until the first one.
    private var lastKey: Key?

    init(parent: DistinctUntilChangedProducer<Element, Key>, observer: Observer, downstream: SubscriptionSlot?) {
        self.parent = parent
        super.init(observer: observer, downstream: downstream)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        // After a terminal event a synchronous source may still be mid-loop; don't run user code.
        guard !isDisposed else { return }
        do {
            let key = try parent.keySelector(element)
            if let lastKey, try parent.comparer(lastKey, key) {
                return
            }
            lastKey = key
        } catch {
            forwardErrorAndDispose(error)
            return
        }
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            guard !isDisposed else { return }
            forwardOn(event)
            dispose()
        }
    }
}

/// The plain `Equatable` form, the most used: compares elements directly, without the identity
/// key selector and comparer closure calls of the general form, and can never fail.
private final class DistinctEquatableProducer<Element: Sendable & Equatable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = DistinctEquatableSink(observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class DistinctEquatableSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Equatable {
    // @unchecked: `lastElement` is touched only from `on(_:)`, which the source calls serially.
    typealias Element = Observer.Element

    /// The last element sent; `nil` until the first one.
    private var lastElement: Element?

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        if let lastElement, lastElement == element {
            return
        }
        lastElement = element
        forwardNext(element)
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

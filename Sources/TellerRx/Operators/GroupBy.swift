extension ObservableType {
    /// Splits the sequence into groups of elements that share a key, one
    /// ``GroupedObservable`` per key.
    ///
    /// The first element with a new key first sends a new group downstream, then is sent into
    /// that group; later elements with that key go only into the group. Groups are hot: a
    /// group's subscribers get the elements sent after they subscribe, so subscribe to each
    /// group as it arrives (`flatMap` does). When the source completes or fails, every group
    /// completes or fails with it, then the outer sequence does. `keySelector` runs
    /// synchronously on the thread that delivers each element; if it throws, the error ends
    /// every group and the outer sequence, and the source is disposed. Everything is delivered
    /// on the thread that delivers the source event.
    ///
    /// Disposing the outer subscription stops new groups from being sent, but the source stays
    /// subscribed while any group still has a subscriber, as in RxSwift.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 4)
    ///     .groupBy { $0.isMultiple(of: 2) ? "even" : "odd" }
    ///     .flatMap { group in group.map { "\(group.key) \($0)" } }
    /// // Prints: next(odd 1), next(even 2), next(odd 3), next(even 4), completed
    /// ```
    ///
    /// - Parameter keySelector: Returns the key of an element.
    /// - Returns: An observable of the groups, in the order their first elements arrived.
    public func groupBy<Key: Hashable & Sendable>(
        keySelector: @escaping @Sendable (Element) throws -> Key
    ) -> Observable<GroupedObservable<Key, Element>> {
        GroupByProducer(source: asObservable(), keySelector: keySelector)
    }
}

private final class GroupByProducer<Key: Hashable & Sendable, Element: Sendable>: Producer<
    GroupedObservable<Key, Element>
>, @unchecked Sendable
{
    // @unchecked: immutable.
    typealias KeySelector = @Sendable (Element) throws -> Key

    let source: Observable<Element>
    let keySelector: KeySelector

    init(source: Observable<Element>, keySelector: @escaping KeySelector) {
        self.source = source
        self.keySelector = keySelector
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable
    where Observer.Element == GroupedObservable<Key, Element> {
        let sink = GroupBySink(keySelector: keySelector, observer: observer, downstream: downstream)
        sink.run(source)
        return sink
    }
}

private final class GroupBySink<Key: Hashable & Sendable, Element: Sendable, Observer: ObserverType>: Sink<Observer>,
    ObserverType, @unchecked Sendable
where Observer.Element == GroupedObservable<Key, Element> {
    // @unchecked: `groups` and `isStopped` are touched only from `on(_:)`, which the source calls
    // serially; `refCount` is written once in `run`, before the source is subscribed.
    private let keySelector: @Sendable (Element) throws -> Key
    private let sourceSubscription = SubscriptionSlot()
    private var refCount: RefCountDisposable?
    private var groups: [Key: PublishSubject<Element>] = [:]
    private var isStopped = false

    init(keySelector: @escaping @Sendable (Element) throws -> Key, observer: Observer, downstream: SubscriptionSlot?) {
        self.keySelector = keySelector
        super.init(observer: observer, downstream: downstream)
    }

    /// Subscribes `source`, wired as this sink's upstream first.
    func run(_ source: Observable<Element>) {
        let refCount = RefCountDisposable(disposable: sourceSubscription)
        self.refCount = refCount
        setSubscription(refCount)
        source.subscribe(self, upstreamOf: sourceSubscription)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        // Not gated on `isDisposed`: after the outer subscription is disposed, groups that
        // still have subscribers keep receiving their elements. Once nobody observes anything
        // the source's slot is disposed, even while a replaying source is still inside
        // `subscribe`, and the key selector must not run again.
        guard !isStopped, !sourceSubscription.isDisposed else { return }
        let key: Key
        do {
            key = try keySelector(element)
        } catch {
            stop(.error(error))
            return
        }
        if let group = groups[key] {
            group.onNext(element)
        } else if let refCount {
            let group = PublishSubject<Element>()
            groups[key] = group
            forwardNext(GroupedObservable(key: key, source: AddRef(source: group, refCount: refCount)))
            group.onNext(element)
        }
    }

    func on(_ event: Event<Element>) {
        guard !isStopped, !sourceSubscription.isDisposed else { return }
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            stop(.error(error))
        case .completed:
            stop(.completed)
        }
    }

    private func stop(_ event: Event<Element>) {
        isStopped = true
        let groups = self.groups
        self.groups = [:]
        for group in groups.values {
            group.on(event)
        }
        switch event {
        case .error(let error): forwardOn(.error(error))
        case .next, .completed: forwardOn(.completed)
        }
        sourceSubscription.dispose()
        dispose()
    }
}

extension ObservableType {
    /// Returns a connectable sequence that pushes this sequence's events into `subject` once
    /// connected; its observers subscribe to `subject`.
    ///
    /// The same subject is used for every connection, so after the source terminates, new
    /// observers get whatever `subject` gives late subscribers (for a `PublishSubject`, the
    /// terminal event). The source is subscribed on the thread that calls
    /// ``ConnectableObservableType/connect()``, and its events reach observers on the thread
    /// it emits on.
    ///
    /// - Parameter subject: The subject that receives the source's events.
    /// - Returns: A connectable observable that shares one subscription to this sequence.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        let box = UncheckedSendable(subject)
        return ConnectableObservableAdapter(source: asObservable(), makeSubject: { box.value })
    }

    /// Returns a connectable sequence that pushes this sequence's events into a subject made
    /// by `makeSubject`; its observers subscribe to that subject.
    ///
    /// A subject is made when the first observer subscribes or the first connection is made,
    /// and is dropped when that connection is disposed or the source terminates, so the next
    /// connection starts with a fresh one. `makeSubject` runs on the subscribing or connecting
    /// thread, never under a lock. The source is subscribed on the thread that calls
    /// ``ConnectableObservableType/connect()``.
    ///
    /// - Parameter makeSubject: Makes the subject for one connection.
    /// - Returns: A connectable observable that shares one subscription to this sequence.
    public func multicast<Subject: SubjectType>(
        makeSubject: @escaping @Sendable () -> Subject
    ) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: makeSubject)
    }

    /// Returns a connectable sequence that shares one subscription to this sequence through
    /// a `PublishSubject`: observers receive only the events sent after they subscribe.
    ///
    /// Equivalent to `multicast(makeSubject: { PublishSubject() })`: each connection gets a
    /// fresh subject, so after the source terminates a new connection subscribes to it again.
    ///
    /// ```swift
    /// let published = Observable.of(1, 2).publish()
    /// _ = published.subscribe(onNext: { print($0) })
    /// _ = published.connect()
    /// // Prints: 1, 2
    /// ```
    ///
    /// - Returns: A connectable observable; nothing is subscribed until `connect()`.
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject<Element>() })
    }
}

/// Connects a source to a subject made on demand. Holds the current subject and connection;
/// both are cleared together when the connection ends, so the next one starts afresh (a
/// `makeSubject` that always returns the same subject gets `multicast(_:)`'s behaviour).
private final class ConnectableObservableAdapter<Subject: SubjectType>: ConnectableObservable<Subject.Element>,
    @unchecked Sendable
where Subject.Observer.Element: Sendable {
    // @unchecked: mutable state is in `state`; subjects are thread-safe by contract.
    typealias SourceElement = Subject.Observer.Element

    private struct State {
        var subject: Subject?
        /// Bumped whenever `subject` is dropped, so a subject fetched before can be told stale.
        var generation: UInt64 = 0
        var connection: MulticastConnection<Subject>?
    }

    private enum ConnectOutcome {
        case existing(MulticastConnection<Subject>)
        case created(MulticastConnection<Subject>)
        case retry
    }

    private let source: Observable<SourceElement>
    private let makeSubject: @Sendable () -> Subject
    private let state = LockedState(State())

    init(source: Observable<SourceElement>, makeSubject: @escaping @Sendable () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Subject.Element {
        currentSubject().subject.subscribe(observer)
    }

    override func connect() -> any Disposable {
        while true {
            let (subject, generation) = currentSubject()
            let outcome = state.withLock { state -> ConnectOutcome in
                if let connection = state.connection { return .existing(connection) }
                // The subject was dropped after we fetched it: fetch the current one again.
                guard state.generation == generation else { return .retry }
                let connection = MulticastConnection(parent: self, subjectObserver: subject.asObserver())
                state.connection = connection
                return .created(connection)
            }
            switch outcome {
            case .existing(let connection):
                return connection
            case .created(let connection):
                connection.setSubscription(source.subscribe(connection))
                return connection
            case .retry:
                continue
            }
        }
    }

    /// Drops the subject and connection if `connection` is still the current one.
    fileprivate func connectionEnded(_ connection: MulticastConnection<Subject>) {
        state.withLock { state in
            guard state.connection === connection else { return }
            state.connection = nil
            state.subject = nil
            state.generation &+= 1
        }
    }

    /// The current subject, made outside the lock if there is none.
    private func currentSubject() -> (subject: Subject, generation: UInt64) {
        if let current = state.withLock({ state in state.subject.map { ($0, state.generation) } }) {
            return current
        }
        let made = makeSubject()
        return state.withLock { state in
            if let existing = state.subject { return (existing, state.generation) }
            state.subject = made
            return (made, state.generation)
        }
    }
}

/// One connection of a ``ConnectableObservableAdapter``: forwards the source's events into the
/// subject; ends itself (dropping the adapter's subject) on a terminal event or disposal.
private final class MulticastConnection<Subject: SubjectType>: ObserverType, Cancelable, @unchecked Sendable
where Subject.Observer.Element: Sendable {
    // @unchecked: `disposed` is atomic, `subscription` is thread-safe, the rest is immutable;
    // the subject's observer is thread-safe by contract.
    typealias Element = Subject.Observer.Element

    private let parent: ConnectableObservableAdapter<Subject>
    private let subjectObserver: Subject.Observer
    private let subscription = SingleAssignmentDisposable()
    private let disposed = AtomicState(false)

    init(parent: ConnectableObservableAdapter<Subject>, subjectObserver: Subject.Observer) {
        self.parent = parent
        self.subjectObserver = subjectObserver
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    var isDisposed: Bool {
        disposed.isSet
    }

    func setSubscription(_ disposable: any Disposable) {
        subscription.setDisposable(disposable)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        if disposed.isSet { return }
        subjectObserver.onNext(element)
    }

    func on(_ event: Event<Element>) {
        if disposed.isSet { return }
        // End the connection first, so an observer that reconnects from inside the terminal
        // event gets a fresh subject and connection.
        if event.isStopEvent { dispose() }
        subjectObserver.on(event)
    }

    func dispose() {
        guard disposed.set() else { return }
        parent.connectionEnded(self)
        subscription.dispose()
    }
}

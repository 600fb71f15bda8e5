extension ConnectableObservableType {
    /// Returns a sequence that connects this connectable sequence when its first observer
    /// subscribes and disconnects it when the last one disposes.
    ///
    /// Each observer subscribes to this sequence first, then the first one connects; a
    /// terminal event ends the connection, and the next observer connects again (with a
    /// `publish()`ed source that means a new subscription to the source). Connecting and
    /// disconnecting run on the subscribing or disposing thread, never under a lock, and never
    /// overlap: a connect requested while a disconnect is in flight on another thread is made
    /// by that thread when it is done.
    ///
    /// - Returns: An observable that stays connected while it has at least one observer.
    public func refCount() -> Observable<Element> {
        RefCountProducer(source: self)
    }
}

private final class RefCountProducer<Source: ConnectableObservableType>: Producer<Source.Element>,
    @unchecked Sendable
{
    // @unchecked: mutable state is in `state`; `source` is immutable and thread-safe.

    /// A session runs from the first observer to the last one leaving or a terminal event;
    /// `count` counts the observers that joined the current session.
    struct State {
        var session: UInt64 = 0
        var count = 0
        var link = ConnectionLink()

        var wanted: UInt64? {
            count > 0 ? session : nil
        }

        mutating func endSession() -> ConnectionLink.Action? {
            count = 0
            session &+= 1
            return link.reconcile(wanted: nil)
        }
    }

    let source: Source
    let state = LockedState(State())

    init(source: Source) {
        self.source = source
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Source.Element {
        let sink = RefCountSink(parent: self, observer: observer, downstream: downstream)
        sink.setSubscription(sink.run())
        return sink
    }

    /// Takes link steps until the link has nothing more to do.
    func perform(_ first: ConnectionLink.Action?) {
        var next = first
        while let action = next {
            switch action {
            case .connect(let session):
                let connection = source.connect()
                next = state.withLock { state in
                    state.link.didConnect(session: session, subscription: connection)
                    return state.link.reconcile(wanted: state.wanted)
                }
            case .disconnect(let connection):
                connection.dispose()
                next = state.withLock { state in
                    state.link.didDisconnect()
                    return state.link.reconcile(wanted: state.wanted)
                }
            }
        }
    }
}

private final class RefCountSink<Source: ConnectableObservableType, Observer: ObserverType>: Sink<Observer>,
    ObserverType, @unchecked Sendable
where Source.Element == Observer.Element {
    // @unchecked: `joined` is only read or written under the parent's lock.
    typealias Element = Observer.Element

    private static var notJoined: UInt64 { .max }

    private let parent: RefCountProducer<Source>
    /// The session this observer counts in, or `notJoined`. Guarded by the parent's lock, which
    /// is also why dynamic exclusivity checks are switched off.
    @exclusivity(unchecked) private var joined = RefCountSink.notJoined

    init(parent: RefCountProducer<Source>, observer: Observer, downstream: SubscriptionSlot?) {
        self.parent = parent
        super.init(observer: observer, downstream: downstream)
    }

    func run() -> any Disposable {
        let subscription = parent.source.subscribe(self)
        let action = parent.state.withLock { state -> ConnectionLink.Action? in
            // Ended already (a connectable whose subject had terminated): don't connect.
            if isDisposed { return nil }
            joined = state.session
            state.count += 1
            return state.link.reconcile(wanted: state.wanted)
        }
        parent.perform(action)
        return Disposables.create { [self] in
            subscription.dispose()
            leave()
        }
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            // The connection is over for everyone who joined it: end the session before
            // forwarding, so an observer that resubscribes from the callback reconnects.
            let action = parent.state.withLock { state -> ConnectionLink.Action? in
                guard joined == state.session else { return nil }
                return state.endSession()
            }
            parent.perform(action)
            forwardOn(event)
            dispose()
        }
    }

    private func leave() {
        let action = parent.state.withLock { state -> ConnectionLink.Action? in
            guard joined == state.session else { return nil }
            joined = RefCountSink.notJoined
            state.count -= 1
            return state.count == 0 ? state.endSession() : nil
        }
        parent.perform(action)
    }
}

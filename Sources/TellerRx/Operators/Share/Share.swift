/// How long the state `share(replay:scope:)` keeps (the replay buffer and the end of the
/// source) lives.
public enum SubjectLifetimeScope: Sendable {
    /// Each connection to the source has its own state. When the last subscriber leaves or the
    /// source terminates, the buffer is cleared and the next subscriber subscribes to the
    /// source again. This is the default, and it makes `retry` and `repeat` after `share` work
    /// as expected.
    case whileConnected

    /// One state for all connections. After the last subscriber leaves, the buffer keeps the
    /// latest elements, and the next subscriber receives them (possibly stale) before the
    /// source is subscribed again. After the source terminates, every new subscriber receives
    /// the buffer and the terminal event at once, and the source is never subscribed again.
    case forever
}

extension ObservableType {
    /// Shares one subscription to this sequence among all subscribers, replaying the latest
    /// `replay` elements to each new one.
    ///
    /// The first subscriber subscribes to the source (on its own thread); later ones join that
    /// subscription and first receive up to `replay` of the latest elements. When the last
    /// subscriber disposes, the source subscription is disposed. `scope` decides what happens
    /// to the buffer and to a terminal event afterwards; see ``SubjectLifetimeScope``. The
    /// source is never subscribed twice at once: a subscriber that arrives while another
    /// thread is still disposing the previous connection is connected by that thread, right
    /// after it finishes. No lock is held while the source is subscribed or disposed.
    ///
    /// Events reach each subscriber in order and never overlap: a subscriber receives its
    /// replay and then every later event. They are delivered on the thread the source emits
    /// on; if another thread is delivering at that moment (a subscriber replaying, or a
    /// re-entrant emission), that thread delivers them right after its current delivery. So a
    /// subscriber that subscribes from inside another subscriber's callback receives its
    /// replay once that callback returns.
    ///
    /// ```swift
    /// let shared = Observable.of(1, 2, 3).share(replay: 1, scope: .forever)
    /// _ = shared.subscribe(onNext: { print("a", $0) })
    /// _ = shared.subscribe(onNext: { print("b", $0) })
    /// // Prints: a 1, a 2, a 3, b 3
    /// ```
    ///
    /// - Parameters:
    ///   - replay: How many of the latest elements a new subscriber receives first (0 for
    ///     none; negative counts are treated as 0).
    ///   - scope: Whether the buffer and a terminal event outlive the connection.
    /// - Returns: An observable that shares one subscription to this sequence.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        if replay < 0 {
            reportMisuse("share(replay: \(replay)) with a negative count; replaying nothing.")
        }
        return ShareObservable(source: asObservable(), replay: max(replay, 0), scope: scope)
    }
}

private final class ShareObservable<Element: Sendable>: Observable<Element>, @unchecked Sendable {
    // @unchecked: all mutable state is in `state`; `source` is immutable.
    typealias Machine = ShareStateMachine<Element>

    private let source: Observable<Element>
    private let state: LockedState<Machine>

    init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        state = LockedState(Machine(replay: replay, forever: scope == .forever))
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let subscriber = ObserverShareSubscriber(observer: observer) { [self] subscriber in
            if let action = state.withLock({ $0.unsubscribe(subscriber) }) {
                perform(action)
            }
        }
        perform(state.withLock { $0.subscribe(subscriber) })
        return subscriber
    }

    /// Receives an event from the connection made for `session`.
    func receive(_ event: Event<Element>, from session: UInt64) {
        perform(state.withLock { $0.receive(event, from: session) })
    }

    private func perform(_ actions: Machine.Actions) {
        if let delivery = actions.delivery {
            deliver(startingWith: delivery)
        }
        if let action = actions.link {
            perform(action)
        }
    }

    /// Delivers `first`, then everything queued meanwhile, until the queue is empty.
    private func deliver(startingWith first: Machine.Delivery) {
        var next: Machine.Delivery? = first
        while let delivery = next {
            switch delivery {
            case .broadcast(let event, let subscribers):
                for subscriber in subscribers {
                    subscriber.deliver(event)
                }
            case .replay(let elements, let terminal, let subscriber):
                for element in elements {
                    subscriber.deliverNext(element)
                }
                if let terminal {
                    subscriber.deliver(terminal)
                }
            }
            next = state.withLock { $0.nextDelivery() }
        }
    }

    /// Takes link steps until the link has nothing more to do.
    private func perform(_ first: ConnectionLink.Action) {
        var next: ConnectionLink.Action? = first
        while let action = next {
            switch action {
            case .connect(let session):
                let subscription = source.subscribe(ShareConnection(owner: self, session: session))
                next = state.withLock { $0.didConnect(session: session, subscription: subscription) }
            case .disconnect(let subscription):
                subscription.dispose()
                next = state.withLock { $0.didDisconnect() }
            }
        }
    }
}

/// The observer a `share` subscribes to its source with: tags events with their session.
private final class ShareConnection<Element: Sendable>: ObserverType, @unchecked Sendable {
    // @unchecked: immutable.
    private let owner: ShareObservable<Element>
    private let session: UInt64

    init(owner: ShareObservable<Element>, session: UInt64) {
        self.owner = owner
        self.session = session
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    func on(_ event: Event<Element>) {
        owner.receive(event, from: session)
    }
}

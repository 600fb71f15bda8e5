/// The shared state of one `share(replay:scope:)` observable, as a state machine: its methods
/// run under the owner's lock and return what the caller must do after leaving it (deliver,
/// connect, disconnect). Nothing here calls out, so it can be tested without threads.
///
/// Three concerns meet here:
/// - **Sessions.** A session runs from the first subscriber to the moment the last one leaves
///   or the source terminates. Each has a number; events from a connection made for another
///   session are stale and dropped. With `.whileConnected` the replay buffer dies with its
///   session; with `.forever` it survives, and so does a terminal event, which every later
///   subscriber receives after the buffer (and the source is never subscribed again).
/// - **Delivery order.** Deliveries (an event for the subscribers present when it was
///   accepted, or the replay for a new subscriber) are numbered by acceptance under the lock
///   and run one at a time, by whichever thread is already delivering. So a subscriber sees
///   exactly its replay and then every later event, in order, never overlapping, even when it
///   subscribes from another thread while the source emits or from inside a callback.
/// - **Connection.** ``ConnectionLink`` turns "this session wants a connection" into connect
///   and disconnect steps that never overlap.
struct ShareStateMachine<Element> {
    typealias Subscriber = ShareSubscriber<Element>

    /// Work for the delivering thread.
    enum Delivery {
        /// `event` for the subscribers that were present when it was accepted.
        case broadcast(Event<Element>, ShareSubscribers<Element>)
        /// The replay buffer (and, after a `.forever` source ended, its terminal event) for a
        /// new subscriber.
        case replay([Element], Event<Element>?, to: Subscriber)
    }

    /// What the caller must do after leaving the lock: first deliver, then take the link step.
    struct Actions {
        /// Set when the caller became the delivering thread: deliver this, then drain with
        /// ``ShareStateMachine/nextDelivery()``.
        var delivery: Delivery?
        /// A connect or disconnect step to take, then report.
        var link: ConnectionLink.Action?
    }

    private let keepsStateForever: Bool
    private var subscribers = ShareSubscribers<Element>()
    private var buffer: RingBuffer<Element>
    private var terminal: Event<Element>?
    private(set) var session: UInt64 = 0
    private var link = ConnectionLink()
    private var isDelivering = false
    private var pending = FIFOQueue<Delivery>()

    /// - Parameters:
    ///   - replay: How many of the latest elements a new subscriber receives first.
    ///   - forever: Whether the buffer and a terminal event outlive the connection.
    init(replay: Int, forever: Bool) {
        buffer = RingBuffer(capacity: replay)
        keepsStateForever = forever
    }

    /// The number of current subscribers (for tests).
    var subscriberCount: Int {
        subscribers.count
    }

    /// Whether a connection exists or is being made (for tests).
    var isConnected: Bool {
        link.isConnected
    }

    /// The session that wants a connection now, if any.
    private var wanted: UInt64? {
        subscribers.isEmpty || terminal != nil ? nil : session
    }

    /// Admits `subscriber`: queues its replay and, if it is the first, asks for a connection.
    mutating func subscribe(_ subscriber: Subscriber) -> Actions {
        let replayed = buffer.elements
        if let terminal {
            return Actions(delivery: startDelivery(.replay(replayed, terminal, to: subscriber)))
        }
        subscribers.append(subscriber)
        let delivery = replayed.isEmpty ? nil : startDelivery(.replay(replayed, nil, to: subscriber))
        return Actions(delivery: delivery, link: link.reconcile(wanted: wanted))
    }

    /// Removes `subscriber`; the last one to leave ends the session and its connection.
    mutating func unsubscribe(_ subscriber: Subscriber) -> ConnectionLink.Action? {
        guard let index = subscribers.firstIndex(where: { $0 === subscriber }) else { return nil }
        subscribers.remove(at: index)
        if subscribers.isEmpty { endSession() }
        return link.reconcile(wanted: wanted)
    }

    /// Accepts `event` from the connection made for session `from`; stale events are dropped.
    mutating func receive(_ event: Event<Element>, from eventSession: UInt64) -> Actions {
        guard eventSession == session, terminal == nil, !subscribers.isEmpty else { return Actions() }
        switch event {
        case .next(let element):
            buffer.append(element)
            return Actions(delivery: startDelivery(.broadcast(event, subscribers)))
        case .error, .completed:
            let receivers = subscribers
            subscribers = []
            if keepsStateForever { terminal = event }
            endSession()
            return Actions(delivery: startDelivery(.broadcast(event, receivers)), link: link.reconcile(wanted: wanted))
        }
    }

    /// Records the connection made for `session` and returns the next link step, if any.
    mutating func didConnect(session: UInt64, subscription: any Disposable) -> ConnectionLink.Action? {
        link.didConnect(session: session, subscription: subscription)
        return link.reconcile(wanted: wanted)
    }

    /// Records a finished disconnect and returns the next link step, if any.
    mutating func didDisconnect() -> ConnectionLink.Action? {
        link.didDisconnect()
        return link.reconcile(wanted: wanted)
    }

    /// The next queued delivery for the delivering thread, or `nil` (and delivering ends).
    mutating func nextDelivery() -> Delivery? {
        guard let delivery = pending.dequeue() else {
            isDelivering = false
            return nil
        }
        return delivery
    }

    private mutating func endSession() {
        session &+= 1
        if !keepsStateForever { buffer.removeAll() }
    }

    /// Returns `delivery` if the caller should deliver it now, or queues it for the thread
    /// already delivering.
    private mutating func startDelivery(_ delivery: Delivery) -> Delivery? {
        if isDelivering {
            pending.enqueue(delivery)
            return nil
        }
        isDelivering = true
        return delivery
    }
}

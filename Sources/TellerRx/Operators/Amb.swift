extension ObservableType {
    /// Mirrors whichever of this sequence and `right` sends an event first, and disposes the
    /// other.
    ///
    /// Both are subscribed at once, this sequence first. The first event from either, an
    /// element, an error or completion, decides: from then on only that sequence's events are
    /// forwarded, on the thread that sends them.
    ///
    /// - Parameter right: The sequence to race against this one.
    /// - Returns: An observable of the winning sequence's events.
    public func amb<Right: ObservableType>(_ right: Right) -> Observable<Element> where Right.Element == Element {
        AmbProducer(left: asObservable(), right: right.asObservable())
    }

    /// Mirrors whichever sequence of `sequences` sends an event first, and disposes the others.
    ///
    /// All are subscribed at once, in order. The first event from any of them, an element, an
    /// error or completion, decides. With no sequences the result never sends anything.
    ///
    /// ```swift
    /// let fastest = Observable.amb([primaryServer.fetch(), mirror.fetch()])
    /// ```
    ///
    /// - Parameter sequences: The sequences to race.
    /// - Returns: An observable of the winning sequence's events.
    public static func amb<Sources: Sequence>(_ sequences: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        sequences.reduce(Observable<Element>.never()) { winner, next in winner.amb(next) }
    }
}

private final class AmbProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let left: Observable<Element>
    let right: Observable<Element>

    init(left: Observable<Element>, right: Observable<Element>) {
        self.left = left
        self.right = right
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = AmbSink(observer: observer, downstream: downstream)
        sink.run(left: left, right: right)
        return sink
    }
}

private enum AmbSide {
    case neither
    case left
    case right
}

/// Races two sequences. Both sides' events go through the sink's drain (see
/// ``SerializingSink``), which also guards the decision: the first event decides the race, is
/// forwarded, and then the side that lost is disposed, all under no lock.
private final class AmbSink<Observer: ObserverType>: SerializingSink<Observer>, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `choice` and the observer references are only touched inside the drain's work.
    @exclusivity(unchecked) private var choice = AmbSide.neither
    // Weak: the observers hold this sink, and their subscriptions (held by the sink disposer)
    // keep them alive for as long as the loser may need disposing.
    @exclusivity(unchecked) private weak var leftObserver: SubscriptionSlot?
    @exclusivity(unchecked) private weak var rightObserver: SubscriptionSlot?

    /// Subscribes both sequences, wired as this sink's upstream first.
    func run(left: Observable<Observer.Element>, right: Observable<Observer.Element>) {
        let leftObserver = AmbObserver(sink: self, side: .left)
        let rightObserver = AmbObserver(sink: self, side: .right)
        serialized { [self] in
            self.leftObserver = leftObserver
            self.rightObserver = rightObserver
        }
        setSubscription(BinaryDisposable(leftObserver, rightObserver))
        left.subscribe(leftObserver, upstreamOf: leftObserver)
        right.subscribe(rightObserver, upstreamOf: rightObserver)
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    fileprivate func onNext(_ element: Observer.Element, from side: AmbSide) {
        if enterIfIdle() {
            handleNext(element, from: side)
            leave()
        } else {
            serialized { [self] in handleNext(element, from: side) }
        }
    }

    fileprivate func on(_ event: Event<Observer.Element>, from side: AmbSide) {
        if enterIfIdle() {
            handle(event, from: side)
            leave()
        } else {
            serialized { [self] in handle(event, from: side) }
        }
    }

    /// Called inside the drain's work with an element from `side`.
    private func handleNext(_ element: Observer.Element, from side: AmbSide) {
        let loser = choose(side)
        if choice == side { forwardNext(element) }
        // The winner's element first, then the loser goes.
        loser?.dispose()
    }

    /// Called inside the drain's work with an event from `side`.
    private func handle(_ event: Event<Observer.Element>, from side: AmbSide) {
        let loser = choose(side)
        if choice == side {
            switch event {
            case .next: forwardOn(event)
            case .error, .completed: forwardTerminal(event)
            }
        }
        // The winner's event first, then the loser goes.
        loser?.dispose()
    }

    /// Makes `side` the winner if neither side has sent anything yet; returns the loser to
    /// dispose once the winner's event is forwarded.
    private func choose(_ side: AmbSide) -> SubscriptionSlot? {
        guard choice == .neither else { return nil }
        choice = side
        let loser = side == .left ? rightObserver : leftObserver
        leftObserver = nil
        rightObserver = nil
        return loser
    }
}

private final class AmbObserver<Observer: ObserverType>: SubscriptionSlot, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: immutable.
    private let sink: AmbSink<Observer>
    private let side: AmbSide

    init(sink: AmbSink<Observer>, side: AmbSide) {
        self.sink = sink
        self.side = side
    }

    /// Elements take this path, with no ``Event`` built (a run-time metadata lookup each in
    /// unspecialized generic code).
    func onNext(_ element: Observer.Element) {
        sink.onNext(element, from: side)
    }

    func on(_ event: Event<Observer.Element>) {
        sink.on(event, from: side)
    }
}

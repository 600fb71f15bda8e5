import Synchronization

/// The state bits of a ``SingleCallbackObserver``. Inlinable constants rather than static
/// stored properties: those of a generic class need its metadata, and global constants are
/// reached through an accessor from other modules.
@usableFromInline
enum SingleCallbackState {
    /// `upstream` has been set.
    @inlinable static var upstreamSet: Int { 1 }
    /// `dispose()` ran, or a created single ended (its disposable is then disposed).
    @inlinable static var disposed: Int { 2 }
    /// An outcome arrived; anything after it is misuse.
    @inlinable static var stopped: Int { 4 }
    /// The outcome closures belong to whoever set this: the delivery, or `dispose()`, which
    /// releases them.
    @inlinable static var claimed: Int { 8 }
    /// `onDisposed` has been taken by whoever set this, to run it once.
    @inlinable static var ended: Int { 16 }

    /// Whether the caller that just set `disposed` over `previous` must dispose `upstream`: it
    /// was set and nobody had disposed before. (If it was not set yet, `setUpstream` disposes it.)
    @inlinable
    static func mustDisposeUpstream(after previous: Int) -> Bool {
        previous & (disposed | upstreamSet) == upstreamSet
    }
}

/// The observer and subscription behind `Single.subscribe(onSuccess:onFailure:onDisposed:)`:
/// one object that holds the closures, receives the outcome, runs `onDisposed` once and
/// disposes what it subscribed to.
///
/// It serves two ways:
/// - for a `Single.create` single, `subscribe` hands ``receive(_:)`` to the create closure
///   directly: no sink, no `Event`, and ``upstream`` is the closure's
///   disposable, disposed when the single ends (after `onDisposed`, as the sink path does);
/// - for any other single, it is an Rx observer (``onNext(_:)``, ``on(_:)``) and ``upstream``
///   is the source subscription, disposed only by ``dispose()``: the source ends itself, and
///   disposing it early would cut short what it does after the element (`do(afterSuccess:)`).
///
/// Whichever comes first, the outcome or `dispose()`, claims the outcome closures; the other
/// side leaves them alone, so they are released as soon as the subscription ends even while
/// the create closure keeps its callback. The grammar is the one the sink path had: the first
/// outcome wins, one arriving after `dispose()` is dropped silently, and any later one is
/// dropped and reported in debug builds.
///
/// `@usableFromInline`, with inlinable delivery, so that `subscribe` and the callback it hands
/// to a create closure are compiled where the element type is known: unspecialized generic code
/// looks up the type metadata of `Result` (and of any generic class it creates) on every call.
@usableFromInline
final class SingleCallbackObserver<Element>: ObserverType, Cancelable, @unchecked Sendable {
    // @unchecked: every mutable field is handed over through `state` (see the bits): each is
    // read and cleared only by the one caller that set the bit owning it.
    @usableFromInline
    let state = AtomicState(0)
    /// Unchecked exclusivity on the fields below: the state bits already make every access
    /// exclusive, and the dynamic checks would cost more than the rest of a subscription.
    @usableFromInline @exclusivity(unchecked)
    var upstream: (any Disposable)?
    @usableFromInline @exclusivity(unchecked)
    var onSuccess: (@Sendable (Element) -> Void)?
    @usableFromInline @exclusivity(unchecked)
    var onFailure: (@Sendable (any Error) -> Void)?
    @usableFromInline @exclusivity(unchecked)
    var onDisposed: (@Sendable () -> Void)?

    @usableFromInline
    init(
        onSuccess: (@Sendable (Element) -> Void)?,
        onFailure: (@Sendable (any Error) -> Void)?,
        onDisposed: (@Sendable () -> Void)?
    ) {
        self.onSuccess = onSuccess
        self.onFailure = onFailure
        self.onDisposed = onDisposed
        Resources.increment()
    }

    deinit {
        Resources.decrement()
    }

    // MARK: Outcome from a `Single.create` closure

    /// Receives the outcome straight from a `Single.create` closure, on any thread: delivers the
    /// first one, runs `onDisposed` and disposes the closure's disposable.
    @inlinable
    func receive(_ event: SingleEvent<Element>) {
        let previous = state.bitwiseOr(
            SingleCallbackState.stopped | SingleCallbackState.claimed
        ).oldValue
        if previous & SingleCallbackState.stopped != 0 {
            reportLateOutcome(event)
            return
        }
        // Disposed first: an outcome arriving afterwards is expected (a cancelled request
        // answering anyway) and dropped silently.
        if previous & SingleCallbackState.claimed != 0 { return }
        switch event {
        case .success(let element): deliverSuccess(element)
        case .failure(let error): deliverFailure(error)
        }
        let ending = state.bitwiseOr(
            SingleCallbackState.ended | SingleCallbackState.disposed
        ).oldValue
        if ending & SingleCallbackState.ended == 0 {
            onDisposed.take()?()
        }
        if SingleCallbackState.mustDisposeUpstream(after: ending) {
            upstream.take()?.dispose()
        }
    }

    // MARK: Rx events from any other single

    /// Receives the element of a single: the same as `on(.next(element))`, without an `Event`.
    @usableFromInline
    func onNext(_ element: Element) {
        let previous = claimOutcome()
        if previous & SingleCallbackState.stopped != 0 {
            reportMisuse("A Single sent more than one element; the extra element was dropped.")
            return
        }
        if previous & SingleCallbackState.claimed != 0 { return }
        deliverSuccess(element)
        endObserved()
    }

    /// Receives an Rx event of a single: `next` is the outcome, and the `completed` that follows
    /// it is expected, so it is dropped silently.
    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            defer { releaseEndedUpstream() }
            if claimOutcome() & (SingleCallbackState.stopped | SingleCallbackState.claimed) != 0 { return }
            deliverFailure(error)
            endObserved()
        case .completed:
            defer { releaseEndedUpstream() }
            if claimOutcome() & (SingleCallbackState.stopped | SingleCallbackState.claimed) != 0 { return }
            reportMisuse("A Single completed without an element; delivering RxError.noElements.")
            deliverFailure(RxError.noElements)
            endObserved()
        }
    }

    /// The Rx source sent its terminal event, so it has ended itself: let go of its
    /// subscription (disposing an ended one does nothing more). The sink behind it holds this
    /// observer, so keeping it until `dispose()` would keep both alive for as long as the
    /// caller keeps this subscription, or for ever if the caller dropped it. Not done at the
    /// element: the source may still run work after it (`do(afterSuccess:)`). A source that
    /// ends while being subscribed has no `upstream` yet; `setUpstream` lets go of it then.
    private func releaseEndedUpstream() {
        let previous = state.bitwiseOr(SingleCallbackState.disposed).oldValue
        if SingleCallbackState.mustDisposeUpstream(after: previous) {
            upstream.take()?.dispose()
        }
    }

    private func claimOutcome() -> Int {
        state.bitwiseOr(SingleCallbackState.stopped | SingleCallbackState.claimed)
            .oldValue
    }

    /// Runs `onDisposed` once after an outcome from an Rx source, which disposes itself.
    private func endObserved() {
        let previous = state.bitwiseOr(SingleCallbackState.ended).oldValue
        if previous & SingleCallbackState.ended == 0 {
            onDisposed.take()?()
        }
    }

    // MARK: Delivery

    /// Calls `onSuccess` with `element`. The caller has claimed the outcome closures; both are
    /// released before the call, so a subscription that lives on holds neither.
    @inlinable
    func deliverSuccess(_ element: Element) {
        let onSuccess = self.onSuccess.take()
        onFailure = nil
        onSuccess?(element)
    }

    /// Calls `onFailure` with `error`, or reports the unhandled error in debug builds. Out of
    /// line: the failure path need not be compiled into every call site.
    @usableFromInline
    func deliverFailure(_ error: any Error) {
        onSuccess = nil
        if let onFailure = onFailure.take() {
            onFailure(error)
        } else {
            Hooks.reportUnhandledError(error)
        }
    }

    @usableFromInline
    func reportLateOutcome(_ event: SingleEvent<Element>) {
        reportMisuse("Single.create sent \(event) after the Single ended; it was dropped.")
    }

    // MARK: Subscription

    /// Records what this observer subscribed to, or disposes it at once if this subscription
    /// is already disposed (a created single may end before its closure returns). Call once.
    @inlinable
    func setUpstream(_ subscription: consuming any Disposable) {
        upstream = subscription
        let previous = state.bitwiseOr(SingleCallbackState.upstreamSet).oldValue
        if previous & SingleCallbackState.disposed != 0 {
            upstream.take()?.dispose()
        }
    }

    /// Whether the subscription has been disposed, or the created single it runs has ended.
    @usableFromInline
    var isDisposed: Bool {
        state.load() & SingleCallbackState.disposed != 0
    }

    /// Disposes what this observer subscribed to, then runs `onDisposed` (once, unless the
    /// outcome already did); an outcome that has not arrived yet will not be delivered.
    /// Safe from any thread, any number of times.
    @usableFromInline
    func dispose() {
        let previous = state.bitwiseOr(
            SingleCallbackState.disposed | SingleCallbackState.claimed | SingleCallbackState.ended
        ).oldValue
        if previous & SingleCallbackState.claimed == 0 {
            onSuccess = nil
            onFailure = nil
        }
        if SingleCallbackState.mustDisposeUpstream(after: previous) {
            upstream.take()?.dispose()
        }
        if previous & SingleCallbackState.ended == 0 {
            onDisposed.take()?()
        }
    }
}

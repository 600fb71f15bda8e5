@_spi(TellerInternals) import TellerRx

/// Delivers an engine's states to its observers on the UI scheduler, with one scheduler hop per
/// state for all of them, each state first passed through `present` there (the data source
/// applies pending writes: app code, run where its docs say, once for all observers).
///
/// Each observer having its own `observe(on:)` cost one scheduled block and one queue round
/// trip per observer per state, most of a busy screen's delivery time. Here every delivery goes
/// through one `observe(on:)`, in the order the engine decided it, and fans out on the UI
/// scheduler. An observer that disposed meanwhile gets nothing more: its `Observable.create`
/// sink drops what arrives after disposal.
final class StateBroadcast<State: Sendable>: Sendable {
    typealias Observers = [StateObserver]

    private enum Delivery: @unchecked Sendable {
        // @unchecked: a delivery is handed over once, from the engine's drain to the UI
        // scheduler; `State` is Sendable and `AnyObserver` is thread-safe.
        case state(State, to: Observers)
        case completion(to: Observers)
    }

    private let scheduler: any ImmediateSchedulerType
    private let present: @Sendable (State) -> State
    /// Told once, right before the first delivery is handed to the scheduler.
    private let firstUse: @Sendable () -> Void
    /// Made at the first delivery: a repository nobody observes (a refresh from a background
    /// task, a widget's one-off read) never pays for the subject and its `observe(on:)`.
    private let deliveries = LockedState<PublishSubject<Delivery>?>(nil)

    init(
        scheduler: any ImmediateSchedulerType,
        present: @escaping @Sendable (State) -> State = { $0 },
        firstUse: @escaping @Sendable () -> Void = {}
    ) {
        self.scheduler = scheduler
        self.present = present
        self.firstUse = firstUse
    }

    /// The subject deliveries go through, made the first time. Its subscription lives as long as
    /// the subject, which only the broadcast holds: what was scheduled before the broadcast went
    /// away is still delivered.
    private func subject() -> PublishSubject<Delivery> {
        if let existing = deliveries.withLock({ $0 }) { return existing }
        firstUse()
        let made = PublishSubject<Delivery>()
        let present = self.present
        _ = made.observe(on: scheduler).subscribe(onNext: { delivery in
            switch delivery {
            case .state(let state, let observers):
                let shown = present(state)
                for entry in observers { entry.observer(of: State.self).onNext(shown) }
            case .completion(let observers):
                for entry in observers { entry.observer(of: State.self).onCompleted() }
            }
        })
        // Only the engine's drain delivers, one thread at a time, so no other subject can have
        // been made meanwhile; the lock only hands the subject to the next drain's thread.
        deliveries.withLock { $0 = made }
        return made
    }

    /// Sends `state` to `observers` on the UI scheduler. Call from one thread at a time (the
    /// engine's drain), so deliveries keep the engine's order.
    func send(_ state: State, to observers: Observers) {
        guard !observers.isEmpty else { return }
        subject().onNext(.state(state, to: observers))
    }

    /// Completes `observers` on the UI scheduler, after every state sent before.
    func complete(_ observers: Observers) {
        guard !observers.isEmpty else { return }
        subject().onNext(.completion(to: observers))
    }
}

/// One `observe()` subscription: the id its disposal names, and where its states go. The
/// machine keeps it without knowing the state type; only its engine, which made it, opens it.
struct StateObserver {
    let id: UInt64
    private let sink: AnyObject

    init<State>(id: UInt64, observer: AnyObserver<State>) {
        self.id = id
        sink = Sink(observer)
    }

    /// The observer, as the engine that made it knows it: `State` is the type it was made with.
    func observer<State>(of state: State.Type) -> AnyObserver<State> {
        unsafeDowncast(sink, to: Sink<State>.self).observer
    }

    /// A class, so the machine can hold it with no knowledge of `State`.
    private final class Sink<State> {
        let observer: AnyObserver<State>

        init(_ observer: AnyObserver<State>) {
            self.observer = observer
        }
    }
}

import TellerRx

/// What a ``RepositoryMachine`` asks its engine to do. The app's values are sealed, as in
/// ``EngineInput``: the engine, which knows the repository's types, opens them.
enum EngineAction {
    /// Deliver this state to observers (and remember it as the latest).
    case emit(DecidedState)
    /// The requirements were set to `nil` (a sign-out): tell the observers that see it (see
    /// ``RepositoryEngine/sessionStates()``), and remember it as the latest.
    case emitSignedOut
    /// Start observing the cache (replacing any observation) with the kind's `view` (sealed);
    /// tag its events with `observation`, a number the machine minted for it.
    case observeCache(any RepositoryRequirements, view: Parcel, observation: Int)
    case stopObservingCache
    /// Join (or start) the flight for `requirements` for the wait `flight`; its events carry
    /// that id.
    case joinFlight(any RepositoryRequirements, flight: UInt64)
    /// Leave the flight of the wait `flight` (nothing waits for it here any more), and send
    /// `.flightLeft` once out; a flight that saves keeps the repository until it ends.
    case leaveFlight(UInt64)
    /// Answer these calls.
    case respond([RefreshCall], RefreshResult)
    /// Run the refresh timer: send `.triggered(.interval)` every `interval` until stopped.
    case startRefreshTimer(RxTimeInterval)
    case stopRefreshTimer
    /// Send `observer` the latest state, if one was emitted yet: it was just added.
    case greet(StateObserver)
    /// The repository is gone: complete these observers (every one it had, or one that came
    /// after).
    case complete([StateObserver])
    case log(TellerLogEvent)
    /// Nothing to do outside the machine, and why (see ``Quiet``).
    case quiet(Quiet)
    /// Log `event` `count` times: one action for a burst of refresh calls, one event each, with
    /// no array of copies built under the lock.
    case logRepeated(TellerLogEvent, count: Int)
    /// An action only this kind of repository has (sealed, of its extension's action type).
    case extra(Parcel)
}

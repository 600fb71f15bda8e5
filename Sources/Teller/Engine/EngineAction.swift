import TellerRx

/// What a ``RepositoryMachine`` asks its engine to do.
enum EngineAction<Extension: MachineExtension> {
    /// Deliver this state to observers (and remember it as the latest).
    case emit(CacheState<Extension.Shown>)
    /// The requirements were set to `nil` (a sign-out): tell the observers that see it (see
    /// ``RepositoryEngine/sessionStates()``), and remember it as the latest.
    case emitSignedOut
    /// Start observing the cache (replacing any observation); tag its events with `observation`,
    /// a number the machine minted for it.
    case observeCache(Extension.Requirements, Extension.View, observation: Int)
    case stopObservingCache
    /// Join (or start) the flight for `requirements` for the wait `flight`; its events carry
    /// that id.
    case joinFlight(Extension.Requirements, flight: UInt64)
    /// Leave the flight of the wait `flight` (nothing waits for it here any more), and send
    /// `.flightLeft` once out; a flight that saves keeps the repository until it ends.
    case leaveFlight(UInt64)
    /// Answer these calls.
    case respond([RefreshCall], RefreshResult)
    /// Run the refresh timer: send `.triggered(.interval)` every `interval` until stopped.
    case startRefreshTimer(RxTimeInterval)
    case stopRefreshTimer
    /// Send `observer` the latest state, if one was emitted yet: it was just added.
    case greet(EngineObserver<Extension>)
    /// The repository is gone: complete these observers (every one it had, or one that came
    /// after).
    case complete([EngineObserver<Extension>])
    case log(TellerLogEvent)
    /// Nothing to do outside the machine, and why (see ``Quiet``).
    case quiet(Quiet)
    /// Log these events, in order (one action for a burst of refresh calls).
    case logs([TellerLogEvent])
    case extra(Extension.Action)
}

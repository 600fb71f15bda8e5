import TellerRx

/// The I/O half of one kind of repository: how its data source is read, observed and fetched,
/// and how its machine's extra actions are carried out. The ``RepositoryEngine`` calls it from
/// whatever thread drains the mailbox; everything it starts reports back through the engine.
protocol EngineEffects: AnyObject, Sendable {
    associatedtype Machine: EngineMachine

    var teller: Teller { get }

    func makeMachine() -> Machine

    /// The metadata of `tag` as the machine sees it, or `nil` when the tag was never fetched.
    func stored(forTag tag: String) -> StoredFetch<Machine.StoredExtra>?

    /// What this repository's own flight saved for `tag` beside the fetch time, since the last
    /// call: it may say more than the metadata can keep (next-page requirements that are not
    /// `Codable`).
    func takeSavedExtra(forTag tag: String) -> Machine.StoredExtra?

    /// The cache for `requirements`, subscribed and delivered on the UI scheduler, each value
    /// with whether the data source calls it empty (asked on the UI scheduler too).
    func observeCache(
        _ requirements: Machine.Requirements,
        _ view: Machine.View
    ) -> Observable<CacheReading<Machine.Cache>>

    /// Which flights are one: repositories whose data sources share this key share a fetch.
    func flightKey(for requirements: Machine.Requirements) -> FlightKey

    /// One fetch-and-save for `requirements`; see ``FlightWork``.
    func flightWork(for requirements: Machine.Requirements) -> Observable<FlightEvent>

    /// Carries out an action only this kind of repository has, sending what comes of it back to
    /// `engine` as `.extra` inputs.
    func perform(_ action: Machine.ExtraAction, engine: RepositoryEngine<Self>)

    /// The repository is gone: stop extra work still running.
    func shutDown()
}

/// One value of the cache as the data source emitted it, with whether the data source calls it
/// empty.
struct CacheReading<Cache: Sendable>: Sendable {
    let cache: Cache
    let isEmpty: Bool
}

/// What a repository needs to know to fetch, save and observe one piece of data, such as
/// "the repos of user X". Set it on ``TellerRepository/requirements``.
///
/// The ``tag`` identifies the data across launches: Teller remembers when data with that tag
/// was last fetched, and runs only one fetch at a time per tag. Describe what the data is,
/// e.g. `"Repos for \(username)"`. Treat requirements as immutable once set.
///
/// `SendableMetatype`, as ``RepositoryDataSource`` is: Teller uses the type on its background
/// scheduler, so a conformance must not be isolated to the main actor. In a target whose default
/// isolation is the main actor (a new Xcode 26 app), that makes a requirements type nonisolated
/// on its own, as it must be; nothing changes elsewhere.
public protocol RepositoryRequirements: SendableMetatype {
    /// A unique, stable description of the data these requirements fetch.
    var tag: Tag { get }
}

extension RepositoryRequirements {
    /// The type of ``tag``.
    public typealias Tag = String
}

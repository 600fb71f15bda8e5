/// What a repository needs to know to fetch, save and observe one piece of data, such as
/// "the repos of user X". Set it on ``TellerRepository/requirements``.
///
/// The ``tag`` identifies the data across launches: Teller remembers when data with that tag
/// was last fetched, and runs only one fetch at a time per tag. Describe what the data is,
/// e.g. `"Repos for \(username)"`. Treat requirements as immutable once set.
public protocol RepositoryRequirements {
    /// A unique, stable description of the data these requirements fetch.
    var tag: Tag { get }
}

extension RepositoryRequirements {
    /// The type of ``tag``.
    public typealias Tag = String
}

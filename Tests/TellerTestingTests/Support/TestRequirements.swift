import Teller

/// Requirements for one user's repos.
struct TestRequirements: RepositoryRequirements, Equatable {
    let username: String

    var tag: Tag {
        "Repos for \(username)"
    }
}

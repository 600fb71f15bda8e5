import Teller

/// Requirements for one user's repos.
package struct TestRequirements: RepositoryRequirements, Equatable {
    package let username: String

    package init(username: String) {
        self.username = username
    }

    package var tag: Tag {
        "Repos for \(username)"
    }
}

import Teller
import Testing

/// `TagPrefix`: tags are paths separated by "/", and a prefix matches whole components only.
@Suite struct TagPrefixTests {
    @Test func aPrefixContainsItsOwnTagAndTheTagsThatContinueItAfterASlash() {
        let prefix: TagPrefix = "users/42"
        #expect(prefix.contains("users/42"))
        #expect(prefix.contains("users/42/posts"))
        #expect(prefix.contains("users/42/posts/7"))
    }

    @Test func aPrefixNeverMatchesPartOfAComponent() {
        let prefix: TagPrefix = "users/4"
        #expect(!prefix.contains("users/42"))
        #expect(!prefix.contains("users/4-archive"))
        #expect(!prefix.contains("users"))
        #expect(!prefix.contains("other/users/4"))
    }

    @Test func componentsAreJoinedWithSlashesAndTrailingSlashesAreDropped() {
        let id = 42
        #expect(TagPrefix(components: ["users", "\(id)"]) == "users/42")
        #expect(TagPrefix("users/42/") == TagPrefix("users/\(id)"))
        #expect(TagPrefix("users/42//").path == "users/42")
        #expect(TagPrefix("users/42/").contains("users/42/posts"))
    }

    @Test func theEmptyPrefixIsTheRootAndContainsEveryTag() {
        #expect(TagPrefix("").contains("users/42"))
        #expect(TagPrefix(components: []).contains(""))
        #expect(TagPrefix("/").contains("Repos for octocat"))
    }
}

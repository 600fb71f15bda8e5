import Testing

@testable import Teller

/// `Invalidations`' marks of a branch of tags (`invalidate(tagsUnder:)`), without threads: a
/// fetch that started after the mark clears it for its own tag only.
@Suite struct InvalidationsBranchMarkTests {
    @Test func aBranchMarkCoversTheBranchTagAndTheTagsBelowItOnly() {
        var invalidations = Invalidations()
        invalidations.invalidate(tagsUnder: "users/42")
        #expect(invalidations.isInvalidated("users/42"))
        #expect(invalidations.isInvalidated("users/42/posts"))
        #expect(invalidations.isInvalidated("users/42/posts/7"))
        #expect(!invalidations.isInvalidated("users/420"))
        #expect(!invalidations.isInvalidated("users/420/posts"))
        #expect(!invalidations.isInvalidated("users/4"))
        #expect(!invalidations.isInvalidated("users"))
    }

    @Test func aFetchThatStartedAfterTheMarkClearsItForItsTagOnly() {
        var invalidations = Invalidations()
        invalidations.invalidate(tagsUnder: "users/42")
        invalidations.fetched("users/42/posts", startedAt: invalidations.stamp)
        #expect(!invalidations.isInvalidated("users/42/posts"))
        #expect(invalidations.isInvalidated("users/42/likes"))
    }

    @Test func aFetchThatStartedBeforeTheMarkLeavesItInPlace() {
        var invalidations = Invalidations()
        let startedBefore = invalidations.stamp
        invalidations.invalidate(tagsUnder: "users/42")
        invalidations.fetched("users/42/posts", startedAt: startedBefore)
        #expect(invalidations.isInvalidated("users/42/posts"))
    }

    @Test func aNewerBranchMarkInvalidatesATagFetchedAfterAnOlderOne() {
        var invalidations = Invalidations()
        invalidations.invalidate(tagsUnder: "users/42/posts")
        invalidations.fetched("users/42/posts", startedAt: invalidations.stamp)
        invalidations.invalidate(tagsUnder: "users")
        #expect(invalidations.isInvalidated("users/42/posts"))
        invalidations.fetched("users/42/posts", startedAt: invalidations.stamp)
        #expect(!invalidations.isInvalidated("users/42/posts"))
        #expect(invalidations.isInvalidated("users/7"))
    }

    @Test func aTagMarkNewerThanTheBranchMarkOutlivesAFetchBetweenThem() {
        var invalidations = Invalidations()
        invalidations.invalidate(tagsUnder: "users/42")
        let startedBetween = invalidations.stamp
        invalidations.invalidate("users/42/posts")
        invalidations.fetched("users/42/posts", startedAt: startedBetween)
        #expect(invalidations.isInvalidated("users/42/posts"))
        #expect(invalidations.isInvalidated("users/42/likes"))
    }

    @Test func invalidateAllReplacesBranchMarks() {
        var invalidations = Invalidations()
        invalidations.invalidate(tagsUnder: "users/42")
        invalidations.invalidateAll()
        invalidations.fetched("users/42/posts", startedAt: invalidations.stamp)
        #expect(!invalidations.isInvalidated("users/42/posts"))
        #expect(invalidations.isInvalidated("users/42/likes"))
        #expect(invalidations.isInvalidated("notes"))
    }
}

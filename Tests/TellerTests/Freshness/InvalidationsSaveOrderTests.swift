import Testing

@testable import Teller

/// `Invalidations` orders the saves of a tag, without threads: a fetch that started before a
/// mark saves nothing once a fetch that started after the mark saved (its data is older), and
/// fetches with no mark between their starts are not told apart.
@Suite struct InvalidationsSaveOrderTests {
    @Test func aFetchThatStartedBeforeAMarkIsSupersededOnceOneStartedAfterItSaved() {
        var invalidations = Invalidations()
        let older = invalidations.stamp
        invalidations.invalidate("notes")
        #expect(!invalidations.isSuperseded("notes", startedAt: older))

        invalidations.fetched("notes", startedAt: invalidations.stamp)
        #expect(invalidations.isSuperseded("notes", startedAt: older))
        #expect(!invalidations.isSuperseded("notes", startedAt: invalidations.stamp))
        #expect(!invalidations.isSuperseded("todos", startedAt: older))
    }

    @Test func fetchesWithNoMarkBetweenTheirStartsAreNotSuperseded() {
        var invalidations = Invalidations()
        invalidations.invalidate("notes")
        let first = invalidations.stamp
        invalidations.fetched("notes", startedAt: invalidations.stamp)
        #expect(!invalidations.isSuperseded("notes", startedAt: first))
    }

    @Test func invalidatingEverythingKeepsTheOrderOfTheSavesBeforeIt() {
        var invalidations = Invalidations()
        let older = invalidations.stamp
        invalidations.invalidate("notes")
        invalidations.fetched("notes", startedAt: invalidations.stamp)
        invalidations.invalidateAll()
        #expect(invalidations.isInvalidated("notes"))
        #expect(invalidations.isSuperseded("notes", startedAt: older))
    }
}

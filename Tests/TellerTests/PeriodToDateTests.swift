import Foundation
import Teller
import Testing

/// Teller-iOS's `Period.toDate()`, as its tests use it: `XCTAssertNewer(lastFetched, maxAgeOfCache.toDate())`.
@Suite struct PeriodToDateTests {
    @Test(arguments: [Calendar.Component.minute, .hour, .day, .month])
    func toDateIsThePeriodBeforeNowOnTheSystemClock(component: Calendar.Component) {
        let maxAgeOfCache = Period(unit: 2, component: component)

        let before = Date()
        let actual = maxAgeOfCache.toDate()
        let after = Date()

        #expect(actual >= maxAgeOfCache.date(before: before))
        #expect(actual <= maxAgeOfCache.date(before: after))
        #expect(actual < before)
    }

    @Test func aCacheFetchedJustBeforeToDateIsTooOldAndOneFetchedNowIsNot() {
        let maxAgeOfCache = Period(unit: 1, component: .hour)
        let now = Date()
        let tooOld = maxAgeOfCache.toDate().addingTimeInterval(-1)

        #expect(maxAgeOfCache.isTooOld(lastFetched: tooOld, now: now))
        #expect(!maxAgeOfCache.isTooOld(lastFetched: now, now: now))
    }
}

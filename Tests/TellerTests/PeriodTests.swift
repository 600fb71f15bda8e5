import Foundation
import Teller
import TellerTestSupport
import Testing

@Suite struct PeriodTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    @Test(arguments: [
        (Calendar.Component.second, 1.0), (.minute, 60), (.hour, 3_600), (.day, 86_400),
    ])
    func aCacheIsTooOldOnceThePeriodHasPassed(component: Calendar.Component, seconds: Double) {
        let period = Period(unit: 5, component: component)
        #expect(!period.isTooOld(lastFetched: now.addingTimeInterval(-5 * seconds + 1), now: now))
        #expect(period.isTooOld(lastFetched: now.addingTimeInterval(-5 * seconds), now: now))
    }

    @Test func aZeroPeriodMakesEveryCacheTooOld() {
        #expect(Period(unit: 0, component: .hour).isTooOld(lastFetched: now, now: now))
    }

    @Test func describesItself() {
        #expect(Period(unit: 5, component: .hour).description == "5 hour")
    }
}

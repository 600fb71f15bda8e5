import Teller
import Testing

@Test func tellerModuleBuilds() { #expect(TellerVersion.current.isEmpty == false) }

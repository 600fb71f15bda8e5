import Foundation
import Testing

/// The two-process test's server log tells a send that began while another process's was under
/// way, and a send never answered: its checks can fail.
@Suite struct OutboxServerLogTests {
    @Test func aSendBeginningWhileAnotherProcessesIsUnderWayIsAnOverlapAndOneNeverAnsweredIsReported() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("teller-server-log-\(UUID())")
        defer { try? FileManager.default.removeItem(at: url) }
        let lines = [
            "begin k1 a-0 100", "end k1 a-0 100",
            "begin k2 b-0 200", "begin k1 a-0 100", "end k2 b-0 200", "end k1 a-0 100",
            "begin k3 b-1 200",
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)

        let log = try OutboxServerLog(contentsOf: url)
        #expect(log.overlaps == ["a-0 (100) during 200's [\"b-0\"]"])
        #expect(log.unreadable == ["b-1 never answered"])
        #expect(log.answers == ["a-0": 2, "b-0": 1])
        #expect(log.keysByName == ["a-0": ["k1"], "b-0": ["k2"], "b-1": ["k3"]])
    }
}

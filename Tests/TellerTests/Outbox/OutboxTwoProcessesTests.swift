import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Two real processes of one app (an app and its extension) on one outbox journal, both
/// enqueueing and both sending to one server fake (`TellerProgramChild outbox`): no write is
/// lost, none is sent by both at once, and a write sent twice keeps its idempotency key.
@Suite struct OutboxTwoProcessesTests {
    @Test func twoProcessesOnOneJournalLoseNoWriteNeverSendAtOnceAndKeepEachWritesKey() async throws {
        let executable = try #require(builtExecutable(named: "TellerProgramChild"), "TellerProgramChild was not built")
        let journal = JournalFixture()
        defer { journal.removeFolder() }
        let folder = journal.url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = folder.appendingPathComponent("server.log")
        let count = 40
        func arguments(_ name: String) -> [String] {
            ["outbox", journal.url.path, server.path, name, "\(count)", "\(2 * count)"]
        }

        // Both start enqueueing when their standard input closes, once both are started; each
        // exits once the server answered both processes' writes and none is pending.
        let (goApp, goExtension) = (Pipe(), Pipe())
        let app = try ChildProcess.start(executable, arguments("app"), input: goApp).get()
        let appExtension = try ChildProcess.start(executable, arguments("extension"), input: goExtension).get()
        try goApp.fileHandleForWriting.close()
        try goExtension.fileHandleForWriting.close()
        async let appPrinted = app.finish()
        async let extensionPrinted = appExtension.finish()
        let printed = try await appPrinted.get() + extensionPrinted.get()

        // "enqueued NAME KEY", once each enqueue returned.
        let enqueued = Dictionary(
            printed.map { $0.split(separator: " ").map(String.init) }.filter { $0.count == 3 }.map { ($0[1], $0[2]) }
        ) { first, _ in first }
        #expect(enqueued.count == 2 * count, "\(printed)")
        let log = try OutboxServerLog(contentsOf: server)
        #expect(log.overlaps.isEmpty)
        #expect(log.unreadable.isEmpty)
        // Nothing lost, nothing the processes never enqueued, every send under the write's key.
        #expect(Set(log.answers.keys) == Set(enqueued.keys))
        #expect(log.keysByName == enqueued.mapValues { [$0] })
        #expect(try journal.journal().records().isEmpty)
        #expect(journal.problems.value.isEmpty)
    }
}

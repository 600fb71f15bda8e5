import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import Testing

/// The enqueued entry, written by hand for speed, is the JSON the encoder writes: any reader
/// reads it back as the same record, however odd its strings, dates and payload.
@Suite struct OutboxJournalEnqueuedEncodingTests {
    static let records: [OutboxRecord] = [
        outboxRecord(1),
        OutboxRecord(
            idempotencyKey: #"quote " backslash \ slash / tab \#t newline \#n nul \#u{0} bell \#u{7}"#,
            kind: "é ü 漢字 🎉 \u{2028}",
            tag: "users/42/posts",
            scope: "",
            payload: Data((0...255).map { UInt8($0) }),
            createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000),
            attempts: 7
        ),
        OutboxRecord(kind: "k", tag: "t", payload: Data(), createdAt: Date(timeIntervalSinceReferenceDate: -1.5e-7)),
        OutboxRecord(kind: "k", tag: "t", payload: Data([0xFF]), createdAt: Date(timeIntervalSinceReferenceDate: 1e20)),
        OutboxRecord(kind: "k", tag: "t", payload: Data("x".utf8), createdAt: Date(timeIntervalSinceReferenceDate: 0)),
        OutboxRecord(kind: "k", tag: "t", payload: Data("xy".utf8), createdAt: .distantPast, attempts: Int.max),
    ]

    @Test(arguments: records)
    func anEnqueuedEntryReadsBackAsItsRecordAndAsTheEncodersJSONDoes(record: OutboxRecord) throws {
        let frame = try OutboxJournalFormat.encode(.enqueued(record: record))
        let body = frame.dropFirst(12)
        let decoded = try JSONDecoder().decode(OutboxJournalEntry.self, from: body)
        #expect(decoded == .enqueued(record: record))

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let encoders = try encoder.encode(OutboxJournalEntry.enqueued(record: record))
        let mine = try JSONSerialization.jsonObject(with: body) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: encoders) as? NSDictionary
        #expect(mine != nil)
        #expect(mine == theirs)
    }

    @Test func aJournalReadsBackEveryOddRecordItWasGiven() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        _ = try fixture.journal(enqueueing: Self.records)
        #expect(try fixture.journal().records() == Self.records)
        #expect(fixture.problems.value.isEmpty)
    }
}

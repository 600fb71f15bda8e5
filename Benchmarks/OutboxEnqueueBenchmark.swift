import Foundation
import Teller

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Enqueueing one write into an outbox journal already holding `pending` records, as a running
/// app does (the journal has read its file): encode the entry, take the file lock, check the
/// file, append, `fsync`. One run enqueues 20 records, so the queue grows from `pending` to
/// `pending` + 20. Issue #20 asks for at most 1.5× the floor at 10 and at 10,000 pending.
final class OutboxEnqueueBenchmark: Benchmark {
    static let workload = "outbox-enqueue"
    let name: String
    let floor: String? = floorName(OutboxEnqueueBenchmark.workload)
    let operations = 20
    var expectedResult: Int { operations }
    private let pending: Int
    private var existing = Data()
    private var folder: URL?
    private var journal: OutboxJournal?
    private var records: [OutboxRecord] = []

    init(pending: Int) {
        self.pending = pending
        name = "\(Self.workload)-\(pending)-pending"
    }

    func setUp() {
        // The pending records are written by hand, in one go: `pending` synced appends
        // would take as long as the measurement.
        if existing.isEmpty {
            existing = Self.encode((0..<pending).map { Self.record($0) })
        }
        let folder = outboxBenchmarkFolder()
        let url = folder.appendingPathComponent("outbox.journal")
        let journal = OutboxJournal(url: url)
        do {
            try existing.write(to: url)
            // Flushed here, or the first timed `fsync` would write all of them.
            let handle = try FileHandle(forWritingTo: url)
            try handle.synchronize()
            try handle.close()
            guard try journal.records().count == pending else { fail("the journal did not read its records") }
        } catch {
            fail("cannot prepare \(url.path): \(error)")
        }
        self.folder = folder
        self.journal = journal
        records = (0..<operations).map { Self.record(pending + $0) }
    }

    func run() -> Int {
        guard let journal else { return 0 }
        var enqueued = 0
        for record in records {
            do {
                try journal.append(.enqueued(record: record))
                enqueued += 1
            } catch {
                fail("enqueue failed: \(error)")
            }
        }
        return enqueued
    }

    func tearDown() {
        journal = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// The `index`th record: the same size, give or take a digit, whatever the index.
    static func record(_ index: Int) -> OutboxRecord {
        OutboxRecord(
            kind: "saveNote",
            tag: "notes-\(index % 100)",
            payload: Data(#"{"id":\#(index),"text":"\#(String(repeating: "x", count: 120))"}"#.utf8),
            createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index))
        )
    }

    /// The journal entries enqueueing `records`, as they are on disk.
    static func encode(_ records: [OutboxRecord]) -> Data {
        do {
            return try records.reduce(into: Data()) { $0.append(try OutboxJournalFormat.encode(.enqueued(record: $1))) }
        } catch {
            fail("cannot encode records: \(error)")
        }
    }
}

/// The floor of ``OutboxEnqueueBenchmark``: the same entries' bytes appended by hand, each with
/// the least a durable append takes: `open(O_APPEND)`, `write`, `fsync`, `close`.
final class OutboxEnqueueFloor: Benchmark {
    let name = floorName(OutboxEnqueueBenchmark.workload)
    let operations = 20
    var expectedResult: Int { operations }
    private var entries: [Data] = []
    private var folder: URL?

    func setUp() {
        if entries.isEmpty {
            entries = (0..<operations).map { OutboxEnqueueBenchmark.encode([OutboxEnqueueBenchmark.record(10 + $0)]) }
        }
        folder = outboxBenchmarkFolder()
    }

    func run() -> Int {
        guard let path = folder?.appendingPathComponent("floor.journal").path else { return 0 }
        var appended = 0
        for entry in entries {
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { fail("open failed: \(errno)") }
            let written = entry.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == entry.count, fsync(descriptor) == 0 else { fail("write or fsync failed: \(errno)") }
            close(descriptor)
            appended += 1
        }
        return appended
    }

    func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}

/// A new folder for one run, on the disk the temporary directory is on.
private func outboxBenchmarkFolder() -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("teller-outbox-bench-\(UUID())")
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
        fail("cannot create \(folder.path): \(error)")
    }
    return folder
}

private func fail(_ message: String) -> Never {
    printError("outbox benchmark: \(message)")
    exit(1)
}

/// The outbox workloads: enqueueing at 10 and at 10,000 pending records, against one floor.
func addOutboxBenchmarks(to suite: inout BenchmarkSuite) {
    suite.add(OutboxEnqueueFloor())
    for pending in [10, 10_000] {
        suite.add(OutboxEnqueueBenchmark(pending: pending))
    }
}

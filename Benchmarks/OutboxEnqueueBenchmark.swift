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
    let name: String
    let floor: String?
    let operations = OutboxEnqueueWork.operations
    var expectedResult: Int { operations }
    private let work: OutboxEnqueueWork
    private var folder: URL?
    private var journal: OutboxJournal?

    init(pending: Int) {
        work = OutboxEnqueueWork(pending: pending)
        name = work.name
        floor = floorName(work.name)
    }

    func setUp() {
        let (folder, url) = work.prepareFile()
        self.folder = folder
        journal = work.loadJournal(url)
    }

    func run() -> Int {
        guard let journal else { return 0 }
        var enqueued = 0
        for record in work.records {
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
}

/// The floor of ``OutboxEnqueueBenchmark``: the same entries' bytes appended by hand to the
/// same file (holding the same `pending` records), each with the least a durable append takes:
/// `open(O_APPEND)`, `write`, `fsync`, `close`. The same file matters: an `fsync` of an append
/// to a 4 MB file costs more than one to a small file on this machine's ext4.
///
/// Its set-up ends as the workload's does, with a journal reading the file, so that both timed
/// runs start as long after the file was written: on this machine's disk, appends that follow
/// the 4 MB write at once cost about a quarter less than the same appends begun 150 ms later
/// (the time reading 10,000 records takes), which made the floor look cheaper than it is.
final class OutboxEnqueueFloor: Benchmark {
    let name: String
    let operations = OutboxEnqueueWork.operations
    var expectedResult: Int { operations }
    private let work: OutboxEnqueueWork
    private var entries: [Data] = []
    private var folder: URL?
    private var path = ""

    init(pending: Int) {
        work = OutboxEnqueueWork(pending: pending)
        name = floorName(work.name)
    }

    func setUp() {
        if entries.isEmpty {
            entries = work.records.map { OutboxEnqueueWork.encode([$0]) }
        }
        let (folder, url) = work.prepareFile()
        self.folder = folder
        path = url.path
        // Read as the workload's set-up reads it, then closed: the floor appends by hand.
        _ = work.loadJournal(url)
    }

    func run() -> Int {
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

/// What a workload and its floor share: the records already in the file, and the 20 records
/// to enqueue (the same bytes for both, give or take a digit of a date).
final class OutboxEnqueueWork {
    static let operations = 20
    let pending: Int
    let records: [OutboxRecord]
    private var existing = Data()

    init(pending: Int) {
        self.pending = pending
        records = (0..<Self.operations).map { Self.record(pending + $0) }
    }

    var name: String {
        "outbox-enqueue-\(pending)-pending"
    }

    /// A new folder with a journal file holding the `pending` records, flushed (or the first
    /// timed `fsync` would write them). Written by hand in one go: `pending` synced appends
    /// would take as long as the measurement.
    func prepareFile() -> (folder: URL, file: URL) {
        if existing.isEmpty {
            existing = Self.encode((0..<pending).map { Self.record($0) })
        }
        let folder = outboxBenchmarkFolder()
        let url = folder.appendingPathComponent("outbox.journal")
        do {
            try existing.write(to: url)
            let handle = try FileHandle(forWritingTo: url)
            try handle.synchronize()
            try handle.close()
        } catch {
            fail("cannot prepare \(url.path): \(error)")
        }
        return (folder, url)
    }

    /// A journal on the prepared file at `url` that has read its `pending` records, as a running
    /// app's has.
    func loadJournal(_ url: URL) -> OutboxJournal {
        let journal = OutboxJournal(url: url)
        do {
            guard try journal.records().count == pending else { fail("the journal did not read its records") }
        } catch {
            fail("cannot read \(url.path): \(error)")
        }
        return journal
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

/// The outbox workloads: enqueueing at 10 and at 10,000 pending records, each against a floor
/// appending the same bytes to the same file.
func addOutboxBenchmarks(to suite: inout BenchmarkSuite) {
    for pending in [10, 10_000] {
        suite.add(OutboxEnqueueFloor(pending: pending))
        suite.add(OutboxEnqueueBenchmark(pending: pending))
    }
}
